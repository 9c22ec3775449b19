"""Model files: exact round trips, and a clear refusal of anything else."""

import hashlib
import io
import json
import pickle
import warnings
import zipfile

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.svm import SVC, SVR

from preimage import (
    ConfigurationWarning,
    ConvergenceWarning,
    KernelDependencyEstimator,
    KernelPCA,
    KernelPCADenoiser,
    ModelFileError,
    SequentialSVR,
    WienerRegressor,
    load_model,
    model_info,
    reduce_kernel_pca,
    reduce_svm,
    save_model,
)
from preimage.datasets import make_three_clusters
from preimage.io import FORMAT_VERSION
from preimage.kernels import LaplacianKernel, PolynomialKernel, SineKernel

X, LABELS = make_three_clusters(random_state=0)[:2]
X_TEST = make_three_clusters(random_state=1)[0]


def _fitted():
    noisy = X + np.random.default_rng(0).normal(scale=0.05, size=X.shape)
    t = np.linspace(0, 6, 40)[:, None]
    return {
        "kpca": KernelPCA(3, kernel="rbf", gamma=10).fit(X),
        "kpca-poly": KernelPCA(3, kernel=PolynomialKernel(degree=2, coef0=1.0)).fit(X),
        "kpca-nystroem": KernelPCA(
            3, kernel="rbf", gamma=10, n_landmarks=25, landmarks="kmeans", random_state=0
        ).fit(X),
        "denoiser-fixed-point": KernelPCADenoiser(2, gamma=10).fit(X),
        "denoiser-gradient": KernelPCADenoiser(
            2, kernel=LaplacianKernel(gamma=2.0), method="gradient"
        ).fit(X),
        "denoiser-learned-pairs": KernelPCADenoiser(2, gamma=10, method="learned").fit(noisy, X),
        "denoiser-mds": KernelPCADenoiser(2, gamma=10, method="mds").fit(X),
        "denoiser-closed-form": KernelPCADenoiser(
            2, gamma=10, method="closed_form", add_mean=True
        ).fit(X),
        "denoiser-nystroem-learned": KernelPCADenoiser(
            2, gamma=10, method="learned", n_landmarks=30, random_state=0
        ).fit(X),
        # the number of components chosen from the data, and how
        "denoiser-auto": KernelPCADenoiser(gamma=10, random_state=0).fit(X),
        "denoiser-auto-pairs": KernelPCADenoiser(gamma=10, random_state=0).fit(noisy, X),
        # a ridge correction of the pre-images: a map, and a filter over "images"
        "denoiser-correction": KernelPCADenoiser(
            2, gamma=10, correction="ridge", random_state=0
        ).fit(noisy, X),
        "denoiser-correction-image": KernelPCADenoiser(
            2, gamma=10, correction="ridge", image_shape=[1, 2], random_state=0
        ).fit(noisy, X),
        # a box: the range of all training points (not only the landmarks), or given
        "denoiser-bounds-data": KernelPCADenoiser(
            2, gamma=10, bounds="data", n_landmarks=30, random_state=0
        ).fit(X),
        "denoiser-bounds-closed-form": KernelPCADenoiser(
            2, gamma=10, method="closed_form", bounds=[0.0, [0.5, 1.0]]
        ).fit(X),
        "wiener-sine": WienerRegressor(kernel=SineKernel(order=3)).fit(t, np.sin(t[:, 0])),
        "sequential-svr": SequentialSVR(gamma=1.0, max_iter=200, tol=1e-3).fit(t, np.sin(t[:, 0])),
        "reduced-svc": reduce_svm(SVC(gamma=10).fit(X, LABELS), 6),
        "reduced-svr": reduce_svm(SVR(gamma=1.0).fit(t, np.sin(t[:, 0])), 5),
        "reduced-kpca": reduce_kernel_pca(KernelPCA(2, kernel="rbf", gamma=10).fit(X), 8),
    }


with warnings.catch_warnings():
    # a few iterations are enough for a round trip; convergence is not the point
    warnings.simplefilter("ignore", ConvergenceWarning)
    warnings.simplefilter("ignore", ConfigurationWarning)  # a learned map without pairs
    FITTED = _fitted()


def _outputs(est):
    Z = X_TEST if est.n_features_in_ == 2 else np.linspace(0, 6, 17)[:, None]
    if hasattr(est, "transform"):
        return est.transform(Z)
    return est.predict(Z)


def _assert_same_state(a, b, where="estimator"):
    assert type(a) is type(b), where
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape, where
        np.testing.assert_array_equal(a, b, err_msg=where)
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            _assert_same_state(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (u, v) in enumerate(zip(a, b)):
            _assert_same_state(u, v, f"{where}[{i}]")
    elif hasattr(a, "__dict__") and type(a).__module__.startswith("preimage"):
        # the caches (private, and the learned map's KA_) are made again when used
        public = {k: v for k, v in vars(a).items() if not k.startswith("_") and k != "KA_"}
        _assert_same_state(public, {k: vars(b).get(k) for k in public}, where)
    elif isinstance(a, float) and np.isnan(a):
        assert np.isnan(b), where
    else:
        assert a == b, where


@pytest.mark.parametrize("name", sorted(FITTED))
@pytest.mark.slow
def test_round_trip_is_exact(name, tmp_path):
    est = FITTED[name]
    path = save_model(est, tmp_path / "model.npz")
    loaded = load_model(path)
    _assert_same_state(est, loaded)
    assert loaded.get_params() == est.get_params()
    np.testing.assert_array_equal(_outputs(loaded), _outputs(est))


def test_reduced_svm_file_keeps_the_sharing_it_was_made_with(tmp_path):
    """`shared` is stored as given, not as a default: a model reduced per
    machine (the default before one shared set became it) loads per machine,
    and refits so."""
    model = SVC(gamma=10).fit(X, LABELS)
    est = reduce_svm(model, 2, shared=False, random_state=0)
    path = save_model(est, tmp_path / "per-machine.npz")
    assert model_info(path)["params"]["shared"] is False
    loaded = load_model(path)
    assert loaded.get_params()["shared"] is False
    np.testing.assert_array_equal(_outputs(loaded), _outputs(est))
    again = loaded.set_params(estimator=SVC(gamma=10)).fit(X, LABELS)
    assert (again.dual_coef_ != 0).sum(axis=1).max() <= 2 < again.n_vectors_


@pytest.mark.parametrize("name", ["denoiser-learned-pairs", "kpca-nystroem", "reduced-svc"])
def test_fitted_estimators_pickle(name):
    est = FITTED[name]
    np.testing.assert_array_equal(_outputs(pickle.loads(pickle.dumps(est))), _outputs(est))


def test_loaded_wiener_regressor_keeps_learning_exactly(tmp_path):
    t = np.linspace(0, 6, 30)[:, None]
    est = WienerRegressor(kernel=SineKernel(order=3)).fit(t[:20], np.sin(t[:20, 0]))
    loaded = load_model(save_model(est, tmp_path / "w.npz"))
    est.partial_fit(t[20:], np.sin(t[20:, 0]))
    loaded.partial_fit(t[20:], np.sin(t[20:, 0]))
    np.testing.assert_array_equal(loaded.predict(t), est.predict(t))


def test_shared_arrays_are_stored_once(tmp_path):
    den = FITTED["denoiser-mds"]
    loaded = load_model(save_model(den, tmp_path / "m.npz"))
    meta = model_info(tmp_path / "m.npz")
    with np.load(tmp_path / "m.npz", allow_pickle=False) as archive:
        assert sorted(k for k in archive.files if k.startswith("a")) == sorted(meta["arrays"])
        # the training data, shared by kpca_ and the solver, are stored once
        assert sum(np.array_equal(archive[k], X) for k in meta["arrays"]) == 1
    assert den.solver_.X_fit_ is den.kpca_.X_fit_
    assert loaded.solver_.X_fit_ is loaded.kpca_.X_fit_


def test_info_describes_without_state(tmp_path):
    den = FITTED["denoiser-learned-pairs"]
    save_model(den, tmp_path / "m.npz", metadata={"image_shape": [1, 2]})
    meta = model_info(tmp_path / "m.npz")
    assert "model" not in meta
    assert meta["format_version"] == FORMAT_VERSION
    assert meta["estimator"] == "KernelPCADenoiser"
    assert meta["params"]["method"] == "learned"
    assert meta["summary"] == {
        "kernel": repr(den.kpca_.kernel_),
        "method": "learned",
        "add_mean": False,
        "n_components": 2,
        "n_training_samples": X.shape[0],
        "n_features_in": 2,
    }
    assert meta["user"] == {"image_shape": [1, 2]}


def test_info_says_how_the_number_of_components_was_chosen(tmp_path):
    den = FITTED["denoiser-auto"]
    summary = model_info(save_model(den, tmp_path / "m.npz"))["summary"]
    assert summary["n_components"] == den.n_components_
    assert summary["component_selection"] == den.component_selection_
    assert summary["component_selection"]["rule"] == "held-out generalisation"


def test_feature_names_are_kept(tmp_path):
    """A denoiser fitted on a DataFrame keeps its column names (an object
    array, stored as a Unicode array and read back as an object array)."""
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(X, columns=["left", "right"])
    den = KernelPCADenoiser(gamma=10, random_state=0).fit(df)
    path = save_model(den, tmp_path / "m.npz")
    loaded = load_model(path)
    _assert_same_state(den, loaded)
    assert loaded.feature_names_in_.dtype == object
    assert list(loaded.get_feature_names_out()) == ["left", "right"]
    test = pd.DataFrame(X_TEST, columns=["left", "right"])
    loaded.set_output(transform="pandas")
    out = loaded.transform(test)
    assert list(out.columns) == ["left", "right"]
    np.testing.assert_array_equal(out.to_numpy(), den.transform(test))
    with np.load(path, allow_pickle=False) as archive:  # nothing pickled
        assert any(archive[k].dtype.kind == "U" for k in archive.files)


# --- refusing to lose or overwrite files -------------------------------------


def test_refuses_to_overwrite(tmp_path):
    path = tmp_path / "m.npz"
    path.write_bytes(b"precious")
    with pytest.raises(FileExistsError, match="refusing to overwrite"):
        save_model(FITTED["kpca"], path)
    assert path.read_bytes() == b"precious"
    save_model(FITTED["kpca"], path, overwrite=True)
    np.testing.assert_array_equal(
        load_model(path).transform(X_TEST), FITTED["kpca"].transform(X_TEST)
    )


def test_interrupted_save_leaves_nothing_behind(tmp_path, monkeypatch):
    path = tmp_path / "m.npz"
    path.write_bytes(b"precious")

    def fail(file, **arrays):
        file.write(b"PK\x03\x04 half an archive")
        raise KeyboardInterrupt

    monkeypatch.setattr(np, "savez_compressed", fail)
    with pytest.raises(KeyboardInterrupt):
        save_model(FITTED["kpca"], path, overwrite=True)
    assert path.read_bytes() == b"precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.npz"]


def test_unfitted_and_unstorable_estimators_are_refused(tmp_path):
    with pytest.raises(NotFittedError, match="'estimator'"):
        save_model(KernelPCA(2, kernel="rbf", gamma="total_variance"), tmp_path / "a.npz")
    with pytest.raises(TypeError, match="'estimator' must be a fitted estimator"):
        save_model(np.eye(2), tmp_path / "b.npz")
    callable_kernel = KernelPCA(2, kernel=lambda A, B: A @ B.T).fit(X)
    with pytest.raises(TypeError, match="cannot hold"):
        save_model(callable_kernel, tmp_path / "c.npz")
    from preimage.datasets import make_kde_strings
    from preimage.kernels import SpectrumKernel

    strings = make_kde_strings(30, random_state=0)
    kde = KernelDependencyEstimator(SpectrumKernel(p=2), SpectrumKernel(p=2), n_components=3).fit(
        strings[0], strings[1]
    )
    with pytest.raises(TypeError, match="use pickle"):
        save_model(kde, tmp_path / "d.npz")
    assert not any(tmp_path.iterdir())


# --- refusing bad files --------------------------------------------------------


def _rewrite(src, dst, change):
    """Copy the archive `src` to `dst`, passing each entry's array to `change`."""
    with np.load(src, allow_pickle=False) as archive:
        entries = {k: archive[k] for k in archive.files}
    entries = change(entries)
    with open(dst, "wb") as f:
        np.savez(f, **entries)


def _metadata_entries(meta):
    text = json.dumps(meta).encode()
    return {
        "metadata": np.frombuffer(text, dtype=np.uint8),
        "checksum": np.frombuffer(hashlib.sha256(text).hexdigest().encode(), dtype=np.uint8),
    }


@pytest.fixture
def saved(tmp_path):
    return save_model(FITTED["denoiser-learned-pairs"], tmp_path / "good.npz")


def test_truncated_file(saved, tmp_path):
    data = saved.read_bytes()
    for cut in (10, len(data) // 2, len(data) - 30):
        bad = tmp_path / f"cut{cut}.npz"
        bad.write_bytes(data[:cut])
        with pytest.raises(ModelFileError, match="truncated|damaged"):
            load_model(bad)


def test_flipped_byte_inside_an_array(saved, tmp_path):
    def flip(entries):
        entries["a0"] = entries["a0"].copy()
        entries["a0"].reshape(-1).view(np.uint8)[3] ^= 1
        return entries

    _rewrite(saved, tmp_path / "bad.npz", flip)
    with pytest.raises(ModelFileError, match="a0 .* does not match its recorded checksum"):
        load_model(tmp_path / "bad.npz")


def test_altered_metadata(saved, tmp_path):
    def alter(entries):
        text = entries["metadata"].tobytes().replace(b'"learned"', b'"mds"    ')
        entries["metadata"] = np.frombuffer(text, dtype=np.uint8)
        return entries

    _rewrite(saved, tmp_path / "bad.npz", alter)
    with pytest.raises(ModelFileError, match="metadata does not match its checksum"):
        load_model(tmp_path / "bad.npz")


def test_newer_format_asks_for_an_upgrade(saved, tmp_path):
    def newer(entries):
        meta = json.loads(entries["metadata"].tobytes())
        meta["format_version"] = FORMAT_VERSION + 1
        meta["preimage_version"] = "9.0"
        entries.update(_metadata_entries(meta))
        return entries

    _rewrite(saved, tmp_path / "new.npz", newer)
    for read in (load_model, model_info):
        with pytest.raises(
            ModelFileError,
            match=rf"version {FORMAT_VERSION + 1}, written by preimage 9.0.*upgrade",
        ):
            read(tmp_path / "new.npz")


def test_class_outside_the_library_is_never_built(saved, tmp_path):
    marker = tmp_path / "pwned"

    def hostile(entries):
        meta = json.loads(entries["metadata"].tobytes())
        meta["model"] = {
            "class": "subprocess:Popen",
            "params": {"args": ["touch", str(marker)]},
            "state": {},
        }
        entries.update(_metadata_entries(meta))
        return entries

    _rewrite(saved, tmp_path / "bad.npz", hostile)
    with pytest.raises(
        ModelFileError, match="names the model 'subprocess:Popen', which model files do not hold"
    ):
        load_model(tmp_path / "bad.npz")
    assert not marker.exists()


def test_pickled_arrays_are_never_unpickled(saved, tmp_path):
    # An object array in place of a numeric one: np.load would need pickle.
    def pickled(entries):
        entries["a0"] = np.array([{"payload": 1}], dtype=object)
        return entries

    _rewrite(saved, tmp_path / "bad.npz", pickled)
    with pytest.raises(ModelFileError, match="a0"):
        load_model(tmp_path / "bad.npz")


@pytest.mark.parametrize("content", ["text", "npy", "npz", "zip"])
def test_not_a_model_file(tmp_path, content):
    path = tmp_path / "x.npz"
    if content == "text":
        path.write_text("hello")
    elif content == "npy":
        np.save(path.open("wb"), np.eye(2))
    elif content == "npz":
        np.savez(path.open("wb"), X=np.eye(2))
    else:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as z:
            z.writestr("readme.txt", "not arrays")
        path.write_bytes(buffer.getvalue())
    with pytest.raises(ModelFileError, match="not a preimage model file"):
        load_model(path)


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_model(tmp_path / "absent.npz")


def test_files_of_earlier_formats_are_refused_with_a_way_out(saved, tmp_path):
    def older(entries):
        meta = json.loads(entries["metadata"].tobytes())
        meta.update(format_version=3, preimage_version="0.1.0.dev0")
        entries.update(_metadata_entries(meta))
        return entries

    _rewrite(saved, tmp_path / "old.npz", older)
    for read in (load_model, model_info):
        with pytest.raises(
            ModelFileError,
            match=r"version 3, written by preimage 0.1.0.dev0.*refit the model and save it again",
        ):
            read(tmp_path / "old.npz")


@pytest.mark.parametrize("with_info", ["yes", 1, None])
def test_load_model_with_info_must_be_a_bool(tmp_path, with_info):
    path = save_model(KernelPCA(2).fit(np.eye(4)), tmp_path / "m.npz")
    with pytest.raises(TypeError, match="'with_info' must be True or False"):
        load_model(path, with_info=with_info)


def test_load_model_with_info_reads_the_file_once(tmp_path, monkeypatch):
    from cli_run import cli_runner

    from preimage.cli import main
    from preimage.io import _model_io as _io

    X = make_three_clusters(random_state=0)[0][::5]
    path = save_model(KernelPCADenoiser(2, gamma=10).fit(X), tmp_path / "m.npz")
    model, info = load_model(path, with_info=True)
    np.testing.assert_array_equal(model.transform(X), load_model(path).transform(X))
    assert info == model_info(path, check_state=True)
    reads = []
    read = _io._read
    monkeypatch.setattr(_io, "_read", lambda *args: reads.append(args) or read(*args))
    np.save(tmp_path / "x.npy", X)
    result = cli_runner().invoke(
        main, ["denoise", str(path), str(tmp_path / "x.npy"), "-o", str(tmp_path / "o.npy")]
    )
    assert result.exit_code == 0, result.output
    assert len(reads) == 1
