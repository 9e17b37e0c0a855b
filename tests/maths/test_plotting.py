import numpy as np
import pytest
from matplotlib.figure import Figure
from scipy import stats

from helpers.plotting import line_points, plot_decision_regions, plot_line, plot_prediction_ellipses, prediction_ellipse


@pytest.mark.parametrize("level", [0.1, 0.5, 0.75, 0.9, 0.99])
def test_ellipse_points_satisfy_mahalanobis_equation(level):
    # every point x on the p ellipse has (x - mu)' inv(cov) (x - mu) = chi2.ppf(p, 2) = -2 ln(1 - p)
    mean = np.array([1.0, -2.0])
    cov = np.array([[4.0, 2.0], [2.0, 3.0]])
    pts = prediction_ellipse(mean, cov, level, n_points=50)
    d = pts - mean
    d2 = np.einsum("ij,jk,ik->i", d, np.linalg.inv(cov), d)
    np.testing.assert_allclose(d2, stats.chi2.ppf(level, 2), rtol=1e-12)
    np.testing.assert_allclose(d2, -2 * np.log(1 - level), rtol=1e-12)


def test_ellipse_coverage_matches_level():
    # a Gaussian sample falls inside the 90% ellipse about 90% of the time
    rng = np.random.default_rng(0)
    cov = np.array([[9.0, 2.7], [2.7, 1.0]])
    x = rng.multivariate_normal([0, 0], cov, size=20000)
    inside = np.einsum("ij,jk,ik->i", x, np.linalg.inv(cov), x) <= stats.chi2.ppf(0.9, 2)
    assert inside.mean() == pytest.approx(0.9, abs=0.01)


def test_ellipse_is_closed_and_diagonal_axes_match():
    pts = prediction_ellipse([0, 0], np.diag([25 / (2 * np.log(4)), 1.0]), 0.75, n_points=9)
    np.testing.assert_allclose(pts[0], pts[-1], atol=1e-12)
    # start angle 0 lies on the first axis at distance sqrt(a * q) = 5 for a = 25 / q
    np.testing.assert_allclose(pts[0], [5.0, 0.0], atol=1e-12)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"level": 1.0}, r"level must be a number in \(0, 1\) \(a coverage probability\)"),
        ({"level": 0.0}, r"level must be a number in \(0, 1\) \(a coverage probability\)"),
        ({"cov": np.array([[1.0, 2.0], [2.0, 1.0]])}, "positive definite"),
        ({"cov": np.eye(3)}, r"\(2, 2\)"),
        ({"mean": [0.0, 0.0, 0.0]}, r"shape \(2,\)"),
        ({"n_points": 2}, r"integer >= 3 \(to draw a closed curve\).*got 2"),
    ],
)
def test_prediction_ellipse_bad_input(kwargs, match):
    args = {"mean": [0.0, 0.0], "cov": np.eye(2), "level": 0.5}
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        prediction_ellipse(**args)


def test_plot_prediction_ellipses_draws_one_line_per_level():
    ax = Figure().add_subplot()
    lines = plot_prediction_ellipses(ax, [0, 0], np.eye(2), levels=(0.1, 0.5, 0.9))
    assert len(lines) == 3
    assert len(ax.texts) == 3
    radii = [np.hypot(*line.get_xydata()[0]) for line in lines]
    np.testing.assert_allclose(radii, np.sqrt(stats.chi2.ppf([0.1, 0.5, 0.9], 2)), rtol=1e-12)


@pytest.mark.parametrize("c", [-1.0, 0.0, 1.0])
def test_line_points_lie_on_the_line(c):
    w, b = np.array([2.0, -3.0]), 0.5
    pts = line_points(w, b, (-4.0, 7.0), c)
    np.testing.assert_allclose(pts @ w + b, c, atol=1e-12)
    np.testing.assert_allclose(pts[:, 0], [-4.0, 7.0])


def test_line_points_vertical_line():
    pts = line_points([2.0, 0.0], -4.0, (0.0, 1.0))
    np.testing.assert_allclose(pts[:, 0], 2.0)


def test_line_points_zero_normal_raises():
    with pytest.raises(ValueError, match="zero vector"):
        line_points([0.0, 0.0], 1.0, (0.0, 1.0))


def test_plot_line_keeps_limits():
    ax = Figure().add_subplot()
    ax.set(xlim=(0, 1), ylim=(0, 1))
    line = plot_line(ax, [1.0, 1.0], -1.0)
    assert ax.get_xlim() == (0, 1) and ax.get_ylim() == (0, 1)
    np.testing.assert_allclose(line.get_xydata() @ [1.0, 1.0] - 1.0, 0.0, atol=1e-12)


def test_decision_regions_shade_the_classifier_predictions():
    from sklearn.neighbors import KNeighborsClassifier

    X = np.array([[0.0, 0.0], [0.0, 1.0], [3.0, 0.0], [3.0, 1.0]])
    labels = np.array(["no", "no", "yes", "yes"])
    clf = KNeighborsClassifier(1).fit(X, labels)
    ax = Figure().add_subplot()
    display = plot_decision_regions(ax, clf, X, labels, grid_resolution=20)
    grid = np.column_stack([display.xx0.ravel(), display.xx1.ravel()])
    codes = np.searchsorted(clf.classes_, clf.predict(grid)).reshape(display.xx0.shape)
    np.testing.assert_array_equal(display.response, codes)  # left half "no" (0), right half "yes" (1)
    assert [t.get_text() for t in ax.legend().get_texts()] == ["no", "yes"]


@pytest.mark.parametrize(
    "X, labels, match",
    [
        (np.zeros((4, 3)), ["a", "a", "b", "b"], r"2 features.*\(4, 3\)"),
        (np.zeros((4, 2)), ["a", "b"], "2 entries for 4 points"),
    ],
)
def test_decision_regions_bad_input(X, labels, match):
    from sklearn.dummy import DummyClassifier

    clf = DummyClassifier().fit(np.zeros((2, 2)), ["a", "b"])
    with pytest.raises(ValueError, match=match):
        plot_decision_regions(Figure().add_subplot(), clf, X, labels)


def test_model_scores_chart_draws_each_model_and_refuses_bad_columns():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    from helpers.plotting import plot_model_scores

    t = pd.DataFrame({"accuracy": [0.97, 0.9, 0.8], "f1": [0.96, 0.85, 0.7], "sd": [0.01, 0.02, 0.03]},
                     index=["lda", "knn", "cosine"])
    ax = plot_model_scores(t, ["accuracy", "f1"], xlabel="mean", title="LDA leads")
    lines = [line for line in ax.get_lines() if line.get_label() in ("accuracy", "f1")]
    assert [line.get_label() for line in lines] == ["accuracy", "f1"]
    np.testing.assert_allclose(lines[0].get_xdata(), [0.97, 0.9, 0.8])
    np.testing.assert_allclose(lines[1].get_ydata(), [0.27, 1.27, 2.27])   # rows offset, best first at the top
    assert ax.yaxis_inverted() and [t.get_text() for t in ax.get_yticklabels()] == ["lda", "knn", "cosine"]
    with pytest.raises(ValueError, match=r"columns \['auc'\] are not in the table"):
        plot_model_scores(t, ["auc"], xlabel="x", title="t")
    with pytest.raises(ValueError, match="one score column; got 2"):
        plot_model_scores(t, ["accuracy", "f1"], xerr="sd", xlabel="x", title="t")
    plt.close("all")



# ---------------------------------------------------------------------------- 06: variance, curves, a reference

def test_cumulative_variance_curve_and_the_components_a_level_needs():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from helpers.plotting import plot_cumulative_variance

    ratios = np.array([0.4, 0.3, 0.2, 0.06, 0.04])
    ax = plot_cumulative_variance(ratios, 0.9)
    curve, level, needed = ax.get_lines()
    np.testing.assert_allclose(curve.get_ydata(), [0.4, 0.7, 0.9, 0.96, 1.0])
    np.testing.assert_allclose(curve.get_xdata(), [1, 2, 3, 4, 5])
    assert level.get_ydata()[0] == 0.9 and needed.get_xdata()[0] == 3  # 0.4 + 0.3 + 0.2 reaches 90%
    assert ax.get_title() == "90% of the variance needs 3 of 5 components"
    ax = plot_cumulative_variance(ratios, 0.9, n_components=4, title="kept 4")
    assert ax.get_lines()[2].get_xdata()[0] == 4 and ax.get_title() == "kept 4"
    with pytest.raises(ValueError, match=r"level must be a number in \(0, 1\] \(a fraction of the variance\)"):
        plot_cumulative_variance(ratios, 1.5)
    plt.close("all")


def test_score_curves_with_reference_lines():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    from helpers.plotting import plot_score_curves

    t = pd.DataFrame({"Euclidean": [0.92, 0.96, 0.81], "whitened": [0.92, 0.95, 0.57]}, index=[10, 25, 3059])
    ax = plot_score_curves(t, xlabel="components (count)", ylabel="accuracy", title="best on 25",
                           hlines={"full space": 0.88}, vlines={"90%": 3059}, logx=True)
    lines = ax.get_lines()
    assert [line.get_label() for line in lines] == ["Euclidean", "whitened", "full space", "90%"]
    assert [line.get_marker() for line in lines[:2]] == ["o", "s"]
    np.testing.assert_allclose(lines[1].get_ydata(), [0.92, 0.95, 0.57])
    assert lines[2].get_ydata()[0] == 0.88 and lines[3].get_xdata()[0] == 3059
    assert ax.get_xscale() == "log" and ax.get_xlabel() == "components (count)"
    with pytest.raises(TypeError, match="table must be a pandas DataFrame"):
        plot_score_curves(t.to_numpy(), xlabel="x", ylabel="y", title="t")
    plt.close("all")


def test_scores_against_a_reference_draw_the_error_reduction():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    from helpers.plotting import plot_against_reference

    t = pd.DataFrame({"Euclidean kNN": [0.631, 0.807], "pooled": [0.659, 0.581], "nearest": [0.529, 0.668]},
                     index=[548, 5485])
    fig = plot_against_reference(t, "Euclidean kNN", xlabel="training documents (count)", ylabel="accuracy",
                                 titles=("Fig. 5", "Fig. 6"), claimed={"35% printed": 0.35})
    left, right = fig.axes
    assert [line.get_linewidth() for line in left.get_lines()] == [2.5, 1.2, 1.2]
    reductions = [line.get_ydata() for line in right.get_lines()[:2]]
    np.testing.assert_allclose(reductions[0], [(0.369 - 0.341) / 0.369, (0.193 - 0.419) / 0.193])
    np.testing.assert_allclose(reductions[1], [(0.369 - 0.471) / 0.369, (0.193 - 0.332) / 0.193])
    assert [line.get_color() for line in right.get_lines()[:2]] == ["C1", "C2"]  # the colours of the left panel
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["Euclidean kNN", "pooled", "nearest", "35% printed"]
    assert (left.get_title(), right.get_title()) == ("Fig. 5", "Fig. 6")
    assert right.get_ylabel() == "error reduction relative to Euclidean kNN (fraction)"
    with pytest.raises(ValueError, match=r"columns \['cosine'\] are not in the scores"):
        plot_against_reference(t, "cosine", xlabel="x", ylabel="y", titles=("a", "b"))
    with pytest.raises(ValueError, match="titles must be a pair"):
        plot_against_reference(t, "pooled", xlabel="x", ylabel="y", titles=("a",))
    plt.close("all")




# --------------------------------------------------------------------------------------------
# notebook 07: maps side by side


def test_labelled_maps_annotate_each_point_in_each_panel():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from helpers.plotting import plot_labelled_maps

    maps = {"SMC": np.array([[0.4, 0.3], [0.6, -0.2], [-0.5, 0.1]]),
            "Jaccard": np.array([[0.2, 0.4], [0.0, 0.6], [0.8, -0.4]])}
    fig = plot_labelled_maps(maps, ["Lion", "Giraffe", "Human"], title="two maps", point_label="creature")
    assert fig._suptitle.get_text() == "two maps" and [ax.get_title() for ax in fig.axes] == ["SMC", "Jaccard"]
    for ax, Z in zip(fig.axes, maps.values()):
        assert [t.get_text() for t in ax.texts] == ["Lion", "Giraffe", "Human"]
        np.testing.assert_allclose([t.xy for t in ax.texts], Z)
        np.testing.assert_allclose(ax.collections[0].get_offsets(), Z)
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["creature"]
    with pytest.raises(ValueError, match=r"maps\['SMC'\] must hold 2 rows"):
        plot_labelled_maps(maps, ["Lion", "Giraffe"], title="t")
    plt.close("all")


def test_class_maps_colour_each_class_and_refuse_too_many():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba

    from helpers.plotting import plot_class_maps

    Z = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0], [3.0, 1.0]])
    fig = plot_class_maps({"a": Z, "b": -Z}, [7, 2, 7, 2], title="digits", legend_title="digit")
    first = fig.axes[0]
    np.testing.assert_allclose(first.collections[0].get_offsets(), Z[[1, 3]])     # class 2 first (sorted)
    np.testing.assert_allclose(first.collections[1].get_offsets(), Z[[0, 2]])
    tab10 = matplotlib.colormaps["tab10"]
    assert tuple(first.collections[1].get_facecolor()[0]) == to_rgba(tab10(1))
    legend = fig.axes[1].get_legend()
    assert legend.get_title().get_text() == "digit" and [t.get_text() for t in legend.get_texts()] == ["2", "7"]
    with pytest.raises(ValueError, match="11 values; ten colours"):
        plot_class_maps({"a": np.zeros((11, 2))}, np.arange(11), title="t")
    with pytest.raises(ValueError, match="non-empty dict"):
        plot_class_maps({}, [], title="t")
    plt.close("all")




# ---------------------------------------------------------------- notebooks 02-05


def test_error_curves_draw_each_curve_and_the_mark():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from helpers.plotting import plot_error_curves

    ks = np.arange(1, 8, 2)
    curves = {"test split": np.array([0.1, 0.08, 0.09, 0.12]), "10-fold": np.array([0.2, 0.15, 0.1, 0.11])}
    ax = plot_error_curves(ks, curves, mark=5, mark_label="the paper's K = 5", xlabel="K (neighbours)",
                           ylabel="error (share of rows)", title="10-fold has its minimum at K = 5")
    lines = ax.get_lines()
    np.testing.assert_array_equal(lines[0].get_xdata(), ks)
    np.testing.assert_allclose(lines[1].get_ydata(), curves["10-fold"])
    assert lines[2].get_xdata()[0] == 5 and lines[2].get_linestyle() == ":"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["test split", "10-fold", "the paper's K = 5"]
    assert (ax.get_xlabel(), ax.get_title()) == ("K (neighbours)", "10-fold has its minimum at K = 5")
    plt.close(ax.figure)
    with pytest.raises(ValueError, match=r"curves\['a'\] has shape \(2,\); it needs one value per x, \(4,\)"):
        plot_error_curves(ks, {"a": [1, 2]}, xlabel="x", ylabel="y", title="t")
    with pytest.raises(ValueError, match="non-empty dict"):
        plot_error_curves(ks, {}, xlabel="x", ylabel="y", title="t")


def test_grouped_bars_one_bar_per_cell_with_the_given_labels():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    from helpers.plotting import plot_table_bars

    table = pd.DataFrame({"accuracy": [0.956, 0.965, 1.0], "recall": [0.907, 0.930, 1.0]}, index=["a", "b", "c"])
    ax = plot_table_bars(table, ["linear", "Option B", "Option A"], xlabel="model", ylabel="score (share)",
                           title="Option A reaches 1.0", ylim=(0.8, 1.01))
    heights = sorted(round(p.get_height(), 3) for p in ax.patches)
    assert heights == sorted([0.956, 0.965, 1.0, 0.907, 0.930, 1.0])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["linear", "Option B", "Option A"]
    assert ax.get_ylim() == (0.8, 1.01)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["accuracy", "recall"]
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="tick_labels has 1 labels for 3 groups"):
        plot_table_bars(table, ["x"], xlabel="x", ylabel="y", title="t")
    with pytest.raises(ValueError, match="non-empty DataFrame"):
        plot_table_bars(pd.DataFrame(), xlabel="x", ylabel="y", title="t")


def test_raw_and_whitened_panels_show_each_point_as_seen_from_the_origin():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from helpers.plotting import plot_raw_and_whitened

    sigma = np.array([[9.0, 2.7], [2.7, 1.0]])
    W = np.linalg.inv(np.linalg.cholesky(sigma))
    points = {"A": np.array([5.5, 0.5]), "B": np.array([2.5, 1.0])}
    fig = plot_raw_and_whitened(points, sigma, W, levels=(0.5,), title="A swings away")
    raw, white = fig.axes
    markers = [line for line in white.get_lines() if line.get_marker() == "o"]
    np.testing.assert_allclose([m.get_xydata()[0] for m in markers], [W @ points["A"], W @ points["B"]])
    assert fig._suptitle.get_text() == "A swings away" and raw.get_xlabel() == "feature 1"
    plt.close(fig)


def test_level_ellipses_cloud_and_lines():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from helpers.plotting import plot_classes_and_lines, plot_cloud_and_points, plot_level_ellipses

    ax = plot_level_ellipses(np.diag([9.0, 0.2]), [0.5, 0.9], {"far": ([5.0, 0.0], "tab:red")}, xlim=(-7, 7),
                             ylim=(-2, 2), title="levels")
    # the labels sit where the ellipses cross the negative x axis: x = -sqrt(9 * chi2.ppf(p, 2))
    np.testing.assert_allclose([t.xy[0] for t in ax.texts], -np.sqrt(9 * stats.chi2.ppf([0.5, 0.9], 2)))
    plt.close(ax.figure)
    cloud = np.random.default_rng(0).normal(size=(40, 2))
    ax = plot_cloud_and_points(cloud, [0, 0], np.eye(2), {"y1": ([2.0, 0.0], "tab:blue")}, radius=2.0, title="t",
                               cloud_label="cluster")
    circle = ax.get_lines()[-1].get_xydata()
    np.testing.assert_allclose(np.hypot(*circle.T), 2.0)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["cluster (n = 40)", "y1", "equal Euclidean distance"]
    plt.close(ax.figure)
    X, y = np.array([[0.0, 0.0], [1.0, 0.5], [3.0, 3.0], [4.0, 3.5]]), np.array([0, 0, 1, 1])
    ax = plot_classes_and_lines(X, y, {0: ("a", "tab:blue"), 1: ("b", "tab:orange")},
                                [([1.0, 1.0], -3.5, c, {"color": "k"}) for c in (-1.0, 0.0, 1.0)],
                                marked=X[[1, 2]], xlim=(-1, 5), ylim=(-1, 5), proxies={"contour": "tab:purple"},
                                title="three lines")
    for line, c in zip(ax.get_lines()[:3], (-1.0, 0.0, 1.0)):                  # every point on w'x + b = c
        np.testing.assert_allclose(line.get_xydata() @ [1.0, 1.0] - 3.5, c)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b", "support vectors", "contour"]
    assert ax.get_xlim() == (-1.0, 5.0)
    plt.close(ax.figure)
