"""Hostile model files: crafted to exhaust memory or to run something else.

Each file here is built from a real saved model, altered, with every hash
recomputed (the checksums detect damage, not deliberate changes). Each must
be a one-line ModelFileError (on the command line: exit status 1, one line on
standard error, no traceback), and reading it must stay within bounded memory.
"""

import hashlib
import json
import os
from pathlib import Path
import re
import subprocess
import sys
import time
import warnings
import zipfile

from cli_run import cli_runner, run_cli
import numpy as np
import pytest

import preimage
from preimage import (
    ConfigurationWarning,
    KernelPCA,
    KernelPCADenoiser,
    ModelFileError,
    load_model,
    model_info,
    save_model,
)
from preimage.cli import main
from preimage.datasets import make_three_clusters

X = make_three_clusters(random_state=0)[0][::5]
SRC = str(Path(preimage.__file__).resolve().parents[1])
PEAK_LIMIT_MB = 300


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    folder = tmp_path_factory.mktemp("models")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConfigurationWarning)  # learned without pairs
        return {
            "kpca": save_model(KernelPCA(3, kernel="rbf", gamma=10).fit(X), folder / "kpca.npz"),
            "denoiser": save_model(KernelPCADenoiser(2, gamma=10).fit(X), folder / "den.npz"),
            "learned": save_model(
                KernelPCADenoiser(2, gamma=10, method="learned").fit(X), folder / "learned.npz"
            ),
        }


def _sha(array):
    return hashlib.sha256(np.ascontiguousarray(array).view(np.uint8).reshape(-1)).hexdigest()


def craft(src, dst, change):
    """Rewrite the model file `src` as `dst`: ``change(meta, arrays)`` alters
    the metadata and arrays in place; every hash is then recomputed."""
    with np.load(src, allow_pickle=False) as archive:
        arrays = {k: archive[k] for k in archive.files if k.startswith("a")}
        meta = json.loads(archive["metadata"].tobytes())
    change(meta, arrays)
    for key, a in arrays.items():
        spec = meta["arrays"].setdefault(key, {"holds": key})
        spec.setdefault("dtype", a.dtype.str)
        spec.setdefault("shape", list(a.shape))
        spec["sha256"] = _sha(a)
    text = json.dumps(meta).encode()
    entries = {
        "metadata": np.frombuffer(text, dtype=np.uint8),
        "checksum": np.frombuffer(hashlib.sha256(text).hexdigest().encode(), dtype=np.uint8),
        **arrays,
    }
    with open(dst, "wb") as f:
        np.savez(f, **entries)
    return dst


def _refused(path, match):
    with pytest.raises(ModelFileError, match=match) as info:
        load_model(path)
    assert "\n" not in str(info.value)
    return str(info.value)


def _cli_refuses(path, match):
    result = cli_runner().invoke(main, ["info", str(path)])
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "Traceback" not in result.output
    assert match in lines[0]


# --- dtypes that are not plain numbers ------------------------------------------

SUBARRAY = "(16383,16383)f8"  # one scalar of 2 GiB


def _model(meta, *path):
    """The record of the model at `path` (names of nested models) in `meta`."""
    node = meta["model"]
    for name in path:
        node = node["state"][name]
    return node


def _array_holding(meta, where):
    return next(k for k, spec in meta["arrays"].items() if spec["holds"] == where)


def test_sub_array_dtype_as_a_declared_dtype(models, tmp_path):
    def hostile(meta, arrays):
        meta["model"]["state"]["solver_"]["output_dtype_"] = SUBARRAY

    path = craft(models["learned"], tmp_path / "m.npz", hostile)
    _refused(path, r"'solver_.output_dtype_' = '\(16383,16383\)f8': must name a float dtype")


@pytest.mark.parametrize("dtype", [SUBARRAY, "|O", "<M8[s]", "|V8", "f8,f8", "|S4"])
def test_array_of_a_dtype_that_is_not_plain(models, tmp_path, dtype):
    def hostile(meta, arrays):
        meta["arrays"]["a0"]["dtype"] = dtype

    path = craft(models["kpca"], tmp_path / "m.npz", hostile)
    _refused(path, r"array a0 .*recorded dtype .* is not a plain numeric")


# --- zip bombs --------------------------------------------------------------------


def _npy_header(shape, dtype="<f8"):
    header = {"descr": dtype, "fortran_order": False, "shape": tuple(shape)}
    text = repr(header).encode("latin1")
    text += b" " * (-(len(text) + 11) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text


def _bomb(src, dst, member, header, nbytes, meta_change=None):
    """Copy the model file `src` to `dst` with `member` replaced by the .npy
    `header` and `nbytes` zeros, compressed as it is written (the file stays
    a few MB, the test's memory a few MB)."""
    with zipfile.ZipFile(src) as old, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            if info.filename == member:
                continue
            data = old.read(info)
            if meta_change is not None and info.filename in ("metadata.npy", "checksum.npy"):
                continue
            new.writestr(info.filename, data)
        if meta_change is not None:
            with np.load(src) as archive:
                meta = json.loads(archive["metadata"].tobytes())
            meta_change(meta)
            text = json.dumps(meta).encode()
            for name, value in (("metadata", text), ("checksum", _sha_text(text))):
                new.writestr(f"{name}.npy", _npy_header([len(value)], "|u1") + value)
        with new.open(member, "w", force_zip64=True) as f:
            f.write(header)
            chunk = bytes(2**22)
            for start in range(0, nbytes, len(chunk)):
                f.write(chunk[: min(len(chunk), nbytes - start)])
    return dst


def _sha_text(text):
    return hashlib.sha256(text).hexdigest().encode()


def _peak(args, env=None):
    """Run ``load_model(path)`` or ``preimage info path`` in a fresh
    interpreter: (its peak memory in MB, its standard error).

    The peak is the process's high-water mark of resident memory (Linux's
    VmHWM, which starts afresh at exec; ``ru_maxrss`` would carry over the
    peak of the test process that forked it).
    """
    code = (
        "import resource, sys\n"
        "try:\n"
        "    if sys.argv[1] == 'info':\n"
        "        from preimage.cli import main\n"
        "        main(sys.argv[1:])\n"
        "    else:\n"
        "        from preimage.io import load_model\n"
        "        load_model(sys.argv[1])\n"
        "except SystemExit:\n"
        "    pass\n"
        "except Exception as exc:\n"
        "    print(f'{type(exc).__name__}: {exc}', file=sys.stderr)\n"
        "try:\n"
        "    status = open('/proc/self/status').read()\n"
        "    print(int(status.split('VmHWM:')[1].split()[0]))\n"
        "except OSError:\n"
        "    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    full_env = {**os.environ, "PYTHONPATH": SRC, **(env or {})}
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=full_env
    )
    seconds = time.perf_counter() - start
    peak_mb = int(result.stdout.strip().splitlines()[-1]) / 1024  # both are in kB
    print(
        f"{args[0]} {Path(args[-1]).name}: peak {peak_mb:.0f} MB, {seconds:.1f} s (with start-up)"
    )
    return peak_mb, result.stderr.strip()


GIB = 2**30


@pytest.mark.slow
def test_array_member_bomb_is_refused_from_its_header(models, tmp_path):
    """2 GiB of zeros in place of the training points: refused from the header,
    before any data is read."""
    path = _bomb(models["kpca"], tmp_path / "bomb.npz", "a0.npy", _npy_header([GIB // 4]), GIB)
    assert path.stat().st_size < 8 * 2**20
    peak, stderr = _peak([str(path)])
    assert stderr.startswith("ModelFileError") and "array a0" in stderr
    assert "has shape (268435456,), but shape (60, 2) was expected" in stderr
    assert peak < PEAK_LIMIT_MB, peak
    print(f"array bomb: peak {peak:.0f} MB")


@pytest.mark.slow
def test_array_member_bomb_with_its_record_is_refused_by_the_budget(models, tmp_path):
    """The same bomb recorded honestly (shape and SHA-256 of 2 GiB of zeros):
    over the memory budget, refused before it is read."""
    nbytes = 2 * GIB
    digest = hashlib.sha256()
    zeros = bytes(2**22)
    for _ in range(nbytes // len(zeros)):
        digest.update(zeros)

    def record(meta):
        meta["arrays"]["a0"].update(dtype="<f8", shape=[nbytes // 8], sha256=digest.hexdigest())

    path = _bomb(
        models["kpca"], tmp_path / "bomb.npz", "a0.npy", _npy_header([nbytes // 8]), nbytes, record
    )
    peak, stderr = _peak([str(path)], env={"PREIMAGE_MEMORY_BUDGET": "200MB"})
    assert stderr.startswith("ModelFileError"), stderr
    assert "over the memory budget of 200.0 MB" in stderr
    assert peak < PEAK_LIMIT_MB, peak
    print(f"recorded array bomb: peak {peak:.0f} MB")


@pytest.mark.slow
@pytest.mark.parametrize("declared", ["honest", "small"])
def test_metadata_bomb_in_preimage_info(models, tmp_path, declared):
    """2 GiB of metadata: refused from its header (over the 1 MiB limit), or,
    with a header that says 100 bytes, from the size the zip declares."""
    shape = [2 * GIB] if declared == "honest" else [100]
    path = _bomb(
        models["kpca"], tmp_path / "bomb.npz", "metadata.npy", _npy_header(shape, "|u1"), 2 * GIB
    )
    peak, stderr = _peak(["info", str(path)])
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), stderr
    expected = "over the limit of 1,048,576 bytes" if declared == "honest" else "unpacks to"
    assert expected in lines[0]
    assert peak < PEAK_LIMIT_MB, peak
    print(f"metadata bomb ({declared} header): peak {peak:.0f} MB")


def _splice(path, marker, text):
    """Put `text` in place of the JSON string `marker` in the metadata of `path`."""
    with np.load(path) as archive:
        entries = {k: archive[k] for k in archive.files}
    meta = entries["metadata"].tobytes().replace(f'"{marker}"'.encode(), text)
    entries["metadata"] = np.frombuffer(meta, dtype=np.uint8)
    entries["checksum"] = np.frombuffer(_sha_text(meta), dtype=np.uint8)
    with open(path, "wb") as f:
        np.savez(f, **entries)
    return path


def test_deeply_nested_metadata(models, tmp_path):
    path = craft(models["kpca"], tmp_path / "m.npz", lambda meta, arrays: meta.update(user="N"))
    _splice(path, "N", b"[" * 100_000 + b"]" * 100_000)  # json.dumps itself would recurse
    _refused(path, "unreadable metadata")
    _cli_refuses(path, "unreadable metadata")


@pytest.mark.parametrize("text", [b'"' + b"a" * 2**21 + b'"', b'"' + b'\\"' * 2**19])
def test_metadata_over_its_limit_is_refused_before_it_is_parsed(models, tmp_path, text):
    """A long string, or a run of escaped quotes with no end: over 1 MiB,
    refused from the member's size, not parsed (a model's metadata is a few kB)."""
    path = craft(models["kpca"], tmp_path / "m.npz", lambda meta, arrays: meta.update(user="S"))
    _splice(path, "S", text)
    _refused(path, "over the limit of 1,048,576 bytes")
    _cli_refuses(path, "the metadata would need")
    with pytest.raises(ValueError, match="over the limit of 1.0 MB; keep 'metadata' small"):
        save_model(load_model(models["kpca"]), tmp_path / "big.npz", metadata={"s": "a" * 2**20})


@pytest.mark.parametrize("n_members", [300, 100_000])
def test_archive_of_many_members_is_refused_from_its_end_record(models, tmp_path, n_members):
    """Members counted from the zip's end records (zip64 included), before its directory is read
    (zipfile would build an object per member)."""
    path = tmp_path / "many.npz"
    with zipfile.ZipFile(models["kpca"]) as old, zipfile.ZipFile(path, "w") as new:
        for info in old.infolist():
            new.writestr(info.filename, old.read(info))
        for i in range(n_members):
            new.writestr(f"e{i}", b"")
    message = _refused(path, f"the archive declares {n_members + 9:,} members")
    assert len(message) < 300
    peak, stderr = _peak([str(path)])
    assert stderr.startswith("ModelFileError") and peak < PEAK_LIMIT_MB, (peak, stderr)


def test_strings_are_counted_as_the_objects_they_become(tmp_path):
    """Column names (read back as Python strings) are budgeted at their size as
    objects, not as packed characters."""
    pd = pytest.importorskip("pandas")
    names = [f"c{i}" for i in range(2)]
    den = KernelPCADenoiser(2, gamma=10).fit(pd.DataFrame(X, columns=names))

    def many(meta, arrays):
        key = _array_holding(meta, "estimator.feature_names_in_")
        arrays[key] = np.full(2_000_000, "x", dtype="<U1")  # 8 MB packed, 176 MB as objects
        del meta["arrays"][key]["shape"]

    path = craft(save_model(den, tmp_path / "den.npz"), tmp_path / "m.npz", many)
    with preimage.config_context(memory_budget="100MB"):
        _refused(
            path, r"the model's arrays would need 1\d\d\.\d MB, over the memory budget of 100"
        )


# --- what MODEL may be ------------------------------------------------------------


@pytest.mark.skipif(os.name != "posix", reason="FIFOs and devices are POSIX")
@pytest.mark.parametrize("command", ["info", "denoise"])
def test_a_fifo_or_a_device_as_model_is_refused_without_reading_it(tmp_path, command):
    os.mkfifo(tmp_path / "f.npz")
    (tmp_path / "z.npz").symlink_to("/dev/zero")
    np.save(tmp_path / "x.npy", X)
    for name, kind in (("f.npz", "is a FIFO (named pipe)"), ("z.npz", "is a character device")):
        args = [command, name] + (["x.npy", "-o", "out.csv"] if command == "denoise" else [])
        # In a child process: opened, a FIFO would wait for a writer, /dev/zero never end.
        result = run_cli(*args, cwd=tmp_path, timeout=60)
        assert result.returncode == 1, result.stderr
        assert result.stderr.strip() == f"Error: {name}: {kind}, not a regular file"
    assert not (tmp_path / "out.csv").exists()


# --- self-consistent files with hostile values ------------------------------------


def _params(*path, **values):
    def change(meta, arrays):
        _model(meta, *path)["params"].update(values)

    return change


def _state(*path, **values):
    def change(meta, arrays):
        _model(meta, *path)["state"].update(values)

    return change


def _negate_eigenvalues(meta, arrays):
    key = _array_holding(meta, "estimator.fit_result_.eigenvalues")
    arrays[key] = -arrays[key]


def _short_eigenvectors(meta, arrays):
    key = _array_holding(meta, "estimator.fit_result_.eigenvectors")
    arrays[key] = arrays[key][:-1]
    del meta["arrays"][key]["shape"], meta["arrays"][key]["dtype"]


def _estimator_eigenvalues(meta, arrays):
    key = _array_holding(meta, "estimator.fit_result_.eigenvalues")
    arrays["a90"] = 1000 * arrays[key]
    meta["model"]["state"]["eigenvalues_"] = {"__array__": "a90"}


def _solver_support(meta, arrays):
    arrays["a91"] = np.full(X.shape, 1e10)
    meta["model"]["state"]["solver_"]["X_fit_"] = {"__array__": "a91"}


def _learned_map_shape(meta, arrays):
    key = _array_holding(meta, "estimator.solver_.coordinates_")
    arrays[key] = np.ones((arrays[key].shape[0], 5))
    del meta["arrays"][key]["shape"]


def _hostile_method_params(meta, arrays):
    meta["model"]["params"]["method_params"] = {"max_iter": 10**12, "tol": 1e-300}
    _model(meta, "kpca_")["params"]["gamma"] = -1.0


BIG = 10**400  # beyond the float range
GAUSSIAN = {"__kernel__": "GaussianKernel", "gamma": 10.0}

HOSTILE = {
    "n-components": (
        "kpca",
        _params(n_components=-5),
        "the model: The 'n_components' parameter of KernelPCA must be",
    ),
    "lookalike-parameter": (
        "kpca",
        _params(n_component=3),
        "the model: KernelPCA has no parameter 'n_component'",
    ),
    "gamma": (
        "kpca",
        _params(kernel={**GAUSSIAN, "gamma": -1.0}),
        "'kernel': 'gamma' must be positive, got -1.0",
    ),
    "gamma-param": (
        "kpca",
        _params(gamma=-1),
        "the model: The 'gamma' parameter of KernelPCA must be",
    ),
    "kernel-by-module": (
        "kpca",
        _params(kernel={**GAUSSIAN, "__kernel__": "preimage.kernels._radial:GaussianKernel"}),
        "'kernel': names the kernel 'preimage.kernels._radial:GaussianKernel', which model "
        "files do not hold",
    ),
    "eigenvalues": (
        "kpca",
        _negate_eigenvalues,
        "the model: 'fit_result_' and 'X_fit_' are not a kernel PCA of n_features_in_",
    ),
    "estimator-eigenvalues": (
        "kpca",
        _estimator_eigenvalues,
        "the model: holds 'eigenvalues_', which the schema of this class does not declare",
    ),
    "cached-solver": (
        "kpca",
        _state(_solvers={"fixed_point": {}}),
        "the model: holds '_solvers', which the schema",
    ),
    "callable-attribute": (
        "denoiser",
        _state(transform={"__kernel__": "LinearKernel"}),
        "the model: holds 'transform', which the schema of this class does not declare",
    ),
    "reference": (
        "kpca",
        _state(X_fit_={"__ref__": {"object": 0}}),
        "'X_fit_' = {'__ref__': {'object': 0}}: must be an array",
    ),
    "solver-none": ("denoiser", _state(solver_=None), "'solver_': is missing"),
    "solver-support": (
        "denoiser",
        _solver_support,
        "'solver_': holds 'X_fit_', which the schema of this class does not declare",
    ),
    "learned-map-shape": (
        "learned",
        _learned_map_shape,
        "'solver_.coordinates_' does not fit the kernel PCA",
    ),
    "method-params": (
        "denoiser",
        _hostile_method_params,
        "'kpca_': The 'gamma' parameter of KernelPCA must be",
    ),
    "kpca-of-other-parameters": (
        "denoiser",
        lambda meta, arrays: _model(meta, "kpca_")["params"].update(kernel="laplacian"),
        "the model: 'kpca_' is not the kernel PCA of the denoiser's parameters",
    ),
    "component-selection": (
        "denoiser",
        _state(component_selection_={"rule": 5}),
        "'component_selection_.rule' = 5: must be of kind 'str'",
    ),
    "int-beyond-floats": (
        "kpca",
        _state(gamma_=BIG),
        f"'gamma_' = {str(BIG)[:57]}...: must be of kind 'float'",
    ),
    "kernel-int-beyond-floats": (
        "kpca",
        _params(kernel={**GAUSSIAN, "gamma": BIG}),
        "'kernel': 'gamma' must be a finite real number, got 1000000",
    ),
    "eigenvector-shape": (
        "kpca",
        _short_eigenvectors,
        "'fit_result_.eigenvectors' = an array of shape (59, 3) and dtype float64: "
        "must have n = 60 along that axis",
    ),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_self_consistent_file_with_hostile_values(models, tmp_path, case):
    model, change, message = HOSTILE[case]
    path = craft(models[model], tmp_path / "m.npz", change)
    text = _refused(path, None)
    assert message in text, text
    _cli_refuses(path, message)


def test_the_crafting_keeps_a_valid_file_valid(models, tmp_path):
    path = craft(models["denoiser"], tmp_path / "m.npz", lambda meta, arrays: None)
    np.testing.assert_array_equal(
        load_model(path).transform(X), load_model(models["denoiser"]).transform(X)
    )


# --- what `preimage info` prints --------------------------------------------------

ESCAPES = "\x1b]0;owned\x07\x1b[2J\x1b[H\u202eevil\nverified:           yes\x7f\x9b"


def test_info_escapes_what_the_file_says(tmp_path):
    kpca = KernelPCA(3, kernel="rbf", gamma=10).fit(X)
    path = save_model(
        kpca, tmp_path / "m.npz", metadata={"data": ESCAPES, "data_kind": ESCAPES, "clean": "\x1b"}
    )
    result = cli_runner().invoke(main, ["info", str(path)])
    assert result.exit_code == 0, result.output
    for bad in ("\x1b", "\x07", "\u202e", "\x7f", "\x9b"):
        assert bad not in result.output
    assert "\\x1b]0;owned\\x07" in result.output
    assert not any(line.startswith("verified") for line in result.stdout.splitlines())
    assert "signature:           none" in result.stdout
    as_json = cli_runner().invoke(main, ["info", str(path), "--json"])
    assert as_json.exit_code == 0
    for bad in ("\x1b", "\x07", "\u202e", "\x7f", "\x9b"):
        assert bad not in as_json.output
    assert json.loads(as_json.stdout)["user"]["data"] == ESCAPES


def test_info_shows_what_will_run_not_what_the_file_says(models, tmp_path):
    def lie(meta, arrays):
        meta["summary"]["kernel"] = "LinearKernel()"
        meta["estimator"] = "WienerRegressor"

    path = craft(models["kpca"], tmp_path / "m.npz", lie)
    result = cli_runner().invoke(main, ["info", str(path)])
    assert result.exit_code == 0, result.output
    assert "GaussianKernel(gamma=10.0)" in result.stdout and "LinearKernel" not in result.stdout
    assert "KernelPCA" in result.stdout and "WienerRegressor" not in result.stdout


@pytest.mark.parametrize("shape", [[-4, -4], [1, 2, 1], "ab", [1.0, 2.0], [2**40, 2**-40]])
def test_a_hostile_image_shape_in_the_file_is_blamed_on_the_file(models, tmp_path, shape):
    def record(meta, arrays):
        meta["user"] = {"image_shape": shape}

    path = craft(models["denoiser"], tmp_path / "m.npz", record)
    np.save(tmp_path / "x.npy", X[:3])
    result = cli_runner().invoke(
        main, ["denoise", str(path), str(tmp_path / "x.npy"), "-o", str(tmp_path / "out")]
    )
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.stderr
    assert lines[0].startswith(f"Error: {path}: the model file's user.image_shape = "), lines[0]
    assert "--image-shape must" not in lines[0]
    assert not (tmp_path / "out").exists()
    # --image-shape, given, is used instead of the file's
    args = ["denoise", str(path), str(tmp_path / "x.npy"), "-o", str(tmp_path / "out")]
    result = cli_runner().invoke(main, [*args, "--image-shape", "1x2", "--quiet"])
    assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "out").iterdir())) == 3


# --- signatures ----------------------------------------------------------------------


def test_signed_file_loads_with_its_key_only(tmp_path, monkeypatch):
    monkeypatch.delenv("PREIMAGE_MODEL_KEY", raising=False)
    kpca = KernelPCA(3, kernel="rbf", gamma=10).fit(X)
    signed = save_model(kpca, tmp_path / "signed.npz", key=b"secret")
    unsigned = save_model(kpca, tmp_path / "plain.npz")
    np.testing.assert_array_equal(load_model(signed, key="secret").transform(X), kpca.transform(X))
    assert model_info(signed, key=b"secret")["verified"] is True
    info = model_info(signed)
    assert (info["signed"], info["verified"]) == (True, False)
    assert load_model(signed).transform(X).shape == (60, 3)  # no key: loads, unverified
    with pytest.raises(ModelFileError, match="signature does not match the key given"):
        load_model(signed, key="another")
    with pytest.raises(ModelFileError, match="not signed, but a key was given"):
        load_model(unsigned, key="secret")
    assert model_info(unsigned)["signed"] is False
    with pytest.raises(ValueError, match="'key' must not be empty"):
        load_model(signed, key="")
    with pytest.raises(TypeError, match="'key' must be bytes or a str"):
        load_model(signed, key=5)


def test_altered_signed_file_is_refused_with_the_key(tmp_path, monkeypatch):
    monkeypatch.delenv("PREIMAGE_MODEL_KEY", raising=False)
    kpca = KernelPCA(3, kernel="rbf", gamma=10).fit(X)
    signed = save_model(kpca, tmp_path / "signed.npz", key="secret")
    with zipfile.ZipFile(signed) as z:
        signature = z.read("signature.npy")

    def alter(meta, arrays):
        meta["model"]["params"]["gamma"] = 11.0

    altered = craft(signed, tmp_path / "altered.npz", alter)
    with zipfile.ZipFile(altered, "a") as z:
        z.writestr("signature.npy", signature)  # the old signature kept
    with pytest.raises(ModelFileError, match="signature does not match"):
        load_model(altered, key="secret")


def test_the_command_line_signs_and_verifies_with_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("PREIMAGE_MODEL_KEY", "secret")
    path = save_model(KernelPCA(3, kernel="rbf", gamma=10).fit(X), tmp_path / "m.npz")
    result = cli_runner().invoke(main, ["info", str(path)])
    assert result.exit_code == 0 and "verified with PREIMAGE_MODEL_KEY" in result.stdout
    monkeypatch.setenv("PREIMAGE_MODEL_KEY", "wrong")
    _cli_refuses(path, "signature does not match the key given")
    monkeypatch.delenv("PREIMAGE_MODEL_KEY")
    result = cli_runner().invoke(main, ["info", str(path)])
    assert result.exit_code == 0 and "present, not verified" in result.stdout


# --- versions --------------------------------------------------------------------------


def test_file_of_another_version_loads_with_a_warning(models, tmp_path):
    def older(meta, arrays):
        meta["preimage_version"] = "0.0.1"

    path = craft(models["kpca"], tmp_path / "m.npz", older)
    with pytest.warns(UserWarning, match=r"written by preimage 0\.0\.1, and this is preimage"):
        load_model(path)
    result = cli_runner().invoke(main, ["info", str(path)])
    assert result.exit_code == 0
    warning_lines = [line for line in result.stderr.splitlines() if line]
    assert len(warning_lines) == 1 and warning_lines[0].startswith("warning: ")


def test_hostile_version_string_is_shown_escaped(models, tmp_path):
    def older(meta, arrays):
        meta["preimage_version"] = "\x1b[2J9.9"

    path = craft(models["kpca"], tmp_path / "m.npz", older)
    result = cli_runner().invoke(main, ["info", str(path)])
    assert result.exit_code == 0 and "\x1b" not in result.output


def test_the_documented_attacks_name_tests_that_exist():
    """docs/bad-input.md lists each attack with the test that checks it."""
    table = (Path(__file__).resolve().parents[1] / "docs" / "bad-input.md").read_text()
    section = table.split("## Hostile model files", 1)[1]
    named = set(re.findall(r"`(test_\w+)(?:\[[\w-]+\])?`", section))
    assert named and named <= {name for name in globals() if name.startswith("test_")}
    assert set(
        re.findall(r"test_self_consistent_file_with_hostile_values\[([\w-]+)\]", section)
    ) == set(HOSTILE)
