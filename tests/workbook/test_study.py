"""The own study's command line, ``python -m helpers.workbook study``: refusals before any work."""

from helpers.workbook import study
from helpers.workbook.cli import main


def test_the_command_line_takes_a_kept_edition_only(capsys):
    assert main(["study", "verify", "--edition", "1"]) == 2
    assert capsys.readouterr().err == ("error: --edition must be one of 2, 3, 4, 5 (the editions kept and those in "
                                       "progress), not 1\n")


def test_the_edge_probe_is_refused_for_an_edition_that_steps_beyond_its_grids_itself(capsys):
    """Edition 5's tunings extend their grids: the fourth edition's probe would read an extended value as
    'not an end of the grid' and stop in a traceback; it is refused in one line that says where the probe belongs."""
    assert main(["study", "edges"]) == 2
    err = capsys.readouterr().err
    assert "edition 5 steps beyond an end of a grid it chose itself" in err
    assert "edges --edition 4" in err and "Traceback" not in err


def test_verify_refuses_more_folds_than_are_stored_before_computing_any(capsys):
    """`verify --cells 100000` printed "recomputing 100000 stored folds" and set out to recompute all 580 of
    them (an hour and a half on two cores): a typo for --cells 10 cost the afternoon."""
    assert main(["study", "verify", "--cells", "581", "--seed", "1", "--edition", "2"]) == 2
    out = capsys.readouterr()
    assert out.err == ("error: 581 folds asked for, more than the 580 stored for edition 2; give at most 580 "
                       "(make study, or `run --edition 2`, recomputes every one)\n")
    assert "recomputing" not in out.out


def test_parts_of_another_protocol_or_method_code_go_to_another_folder():
    from helpers.studies.generalisation import load_protocol

    protocol = load_protocol()
    folder = study._parts_folder(protocol)
    assert folder.parent.name == f"generalisation_v{protocol['study']['edition']}"
    assert folder.name.startswith(protocol["sha256"][:12] + "-")
    assert study._parts_folder(dict(protocol, sha256="0" * 64)) != folder


def test_ctrl_c_is_one_line_and_exit_130(monkeypatch, capsys):
    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(study, "recompute_sample", stopped)
    assert main(["study", "verify", "--cells", "1", "--seed", "1", "--edition", "2"]) == 130
    assert capsys.readouterr().err == "interrupted; nothing was stored or compared\n"


def test_a_change_to_the_method_code_moves_the_parts_folder(monkeypatch, tmp_path):
    from helpers.studies.generalisation import load_protocol

    protocol = load_protocol()
    before = study._parts_folder(protocol)
    edited = tmp_path / "shrinkage.py"
    edited.write_text(open(study.shrinkage.__file__).read() + "\n# edited\n")
    monkeypatch.setattr(study.shrinkage, "__file__", str(edited))
    after = study._parts_folder(protocol)
    assert after.parent == before.parent and after.name[:12] == before.name[:12] and after != before
