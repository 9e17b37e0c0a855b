"""The plotting functions of notebooks 00 and 01: what they draw is what they were given."""

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from sklearn.neighbors import KNeighborsClassifier

from helpers.plotting import (
    plot_alpha_curves,
    plot_decision_panels,
    plot_grouped_bars,
    plot_image_row,
    plot_labelled_points,
    plot_unit_balls,
    plot_voronoi_cells,
    plot_whitening,
)

X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [2.0, 2.0], [1.0, 1.0], [3.0, 1.5]])
LABELS = np.array(["no", "no", "yes", "yes", "no", "yes"])


@pytest.fixture(autouse=True)
def agg_figures():
    matplotlib.use("Agg")
    yield
    plt.close("all")


def test_unit_balls_lie_on_their_unit_spheres():
    ax = plot_unit_balls(plt.subplots()[1], n_points=50)
    for line, p in zip(ax.get_lines(), (1, 2, np.inf)):
        points = np.asarray(line.get_xydata())
        np.testing.assert_allclose(np.linalg.norm(points, ord=p, axis=1), 1.0, atol=1e-12)
    with pytest.raises(ValueError, match="3 norms but 1 line styles"):
        plot_unit_balls(plt.subplots()[1], styles=("-",))


def test_labelled_points_draw_each_class_with_its_marker():
    _, ax = plt.subplots()
    drawn = plot_labelled_points(ax, X, LABELS, markers=("o", "^"), s=30)
    np.testing.assert_array_equal(drawn[0].get_offsets(), X[LABELS == "no"])
    np.testing.assert_array_equal(drawn[1].get_offsets(), X[LABELS == "yes"])
    assert [c.get_label() for c in drawn] == ["no", "yes"]
    with pytest.raises(ValueError, match="2 classes but 1 markers"):
        plot_labelled_points(ax, X, LABELS, markers=("o",))
    with pytest.raises(ValueError, match="one label per row"):
        plot_labelled_points(ax, X, LABELS[:2])


def test_voronoi_vertices_are_equidistant_from_their_two_points():
    _, ax = plt.subplots()
    vor = plot_voronoi_cells(ax, X, xlim=(-1, 4), ylim=(-1, 3))
    for (a, b), verts in zip(vor.ridge_points, vor.ridge_vertices):
        for v in (v for v in verts if v >= 0):
            assert np.linalg.norm(vor.vertices[v] - X[a]) == pytest.approx(np.linalg.norm(vor.vertices[v] - X[b]))
    assert ax.get_xlim() == (-1, 4) and ax.get_ylim() == (-1, 3)


def test_decision_panels_one_per_classifier_with_titles():
    models = {f"K = {k}": KNeighborsClassifier(k).fit(X, LABELS) for k in (1, 3)}
    fig = plot_decision_panels(models, X, LABELS, titles=["one", "three"], xlabel="speed", ylabel="agility",
                               legend_title="draft")
    assert [ax.get_title() for ax in fig.axes] == ["one", "three"]
    assert fig.axes[0].get_ylabel() == "agility" and fig.axes[1].get_xlabel() == "speed"
    assert fig.axes[0].get_legend().get_title().get_text() == "draft"
    with pytest.raises(ValueError, match="2 classifiers but 1 titles"):
        plot_decision_panels(models, X, LABELS, titles=["one"])


def test_whitening_draws_the_whitened_points_with_identity_covariance():
    S = np.cov(X, rowvar=False)
    W = np.linalg.inv(np.linalg.cholesky(S))
    fig = plot_whitening(X, X[0], S, W, names=("speed", "agility"), point_label="athletes")
    raw, whitened = fig.axes[0].collections[0].get_offsets(), fig.axes[1].collections[0].get_offsets()
    np.testing.assert_allclose(raw, X)
    np.testing.assert_allclose(whitened, X @ W.T)
    np.testing.assert_allclose(np.cov(np.asarray(whitened), rowvar=False), np.eye(2), atol=1e-12)
    assert fig.axes[0].collections[0].get_label() == "6 athletes" and fig.axes[0].get_xlabel() == "speed"


def test_alpha_curves_normalise_by_alpha_one_and_draw_the_tolerance():
    t = pd.DataFrame({"alpha_K": [10.0, 4.0, 1.0], "slope_K": [-0.6, -0.3, np.nan]}, index=[1, 2, 3])
    fig = plot_alpha_curves({"toy": t}, 0.05, titles=("left", "right"))
    left, right = fig.axes
    np.testing.assert_allclose(left.get_lines()[0].get_ydata(), [1.0, 0.4, 0.1])
    np.testing.assert_allclose(right.get_lines()[0].get_ydata(), [0.6, 0.3])
    assert right.get_lines()[1].get_ydata()[0] == 0.05 and right.get_yscale() == "log"
    assert (left.get_title(), right.get_title()) == ("left", "right")


def test_image_row_reshapes_each_image_with_its_colour_map():
    images = [np.arange(6.0), -np.arange(6.0)]
    fig = plot_image_row(images, (2, 3), ["a", "b"], cmaps=["gray", "RdBu_r"], limits=(0, 5), suptitle="both")
    for ax, image, cmap in zip(fig.axes, images, ("gray", "RdBu_r")):
        shown = ax.images[0]
        np.testing.assert_array_equal(shown.get_array(), image.reshape(2, 3))
        assert shown.get_cmap().name == cmap and shown.get_clim() == (0, 5)
    assert fig.get_suptitle() == "both"
    with pytest.raises(ValueError, match="2 images but 1 titles"):
        plot_image_row(images, (2, 3), ["a"])


def test_grouped_bars_sit_side_by_side():
    ax = plot_grouped_bars(plt.subplots()[1], {"A'A": [0.22, 0.41, 0.88], "correlation": [0.59, 0.58, 0.56]},
                           ["length", "wingspan", "weight"])
    centres = [round(float(p.get_x() + p.get_width() / 2), 3) for p in ax.patches]
    assert centres == [-0.2, 0.8, 1.8, 0.2, 1.2, 2.2]
    assert [float(p.get_height()) for p in ax.patches] == [0.22, 0.41, 0.88, 0.59, 0.58, 0.56]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["length", "wingspan", "weight"]
    with pytest.raises(ValueError, match="has 2 values for 3 categories"):
        plot_grouped_bars(ax, {"short": [1, 2]}, ["a", "b", "c"])
