"""The ``preimage`` command line: it parses arguments and calls the library.

No algorithm lives here. Exit status: 0 success; 1 a problem with the data or
files, said in one line; 2 a usage error; 130 interrupted (Ctrl-C), 143
terminated (SIGTERM), with the temporary files of the write under way removed.
"""

import functools
import math
from pathlib import Path
import sys
import warnings

import click

from preimage._utils.progress import activity, bar, ticking

# Only names, imported without NumPy (the registries import their classes when
# looked up): `preimage --help` waits for nothing numerical.
from preimage.cli._demo import NOISE_MODELS
from preimage.cli._errors import CommandLine
from preimage.cli._options import (
    as_box_bounds,
    as_component_count,
    as_image_shape,
    bad_option,
    check_not_existing,
    data_argument,
    data_options,
    figures_to_files,
    model_argument,
    output_option,
    quiet_option,
    seed_option,
)
from preimage.cli._text import (
    info_lines,
    json_text,
    note,
    printable,
    recorded_image_shape,
    selection_lines,
    warnings_as_notes,
)
from preimage.kernels import KERNELS
from preimage.solvers import PREIMAGE_METHODS

# Every named kernel but "sine" (SineKernel, tests/test_cli.py): its order N has
# no option (--degree is the polynomial's), and its values (N + 1)^d overflow on images.
_FIT_KERNELS = [name for name in KERNELS if name != "sine"]


@click.group(
    cls=CommandLine,
    context_settings={"help_option_names": ["-h", "--help"], "show_default": True},
    epilog="Exit status: 0 on success, 1 when a command fails on its data or "
    "files, 2 on a usage error, 130 when interrupted, 143 when terminated.",
)
@click.version_option(package_name="preimage")
def main() -> None:
    """Pre-images for kernel methods: from feature space back to input space.

    Start with `preimage demo`; fit your own denoiser with `preimage fit` and
    apply it with `preimage denoise`.\f
    Parameters
    ----------
    *args, **kwargs
        Passed to click's ``Command.main``: the arguments (default
        ``sys.argv[1:]``), ``prog_name``, and ``standalone_mode`` (False: return
        the exit status instead of leaving the interpreter).

    Examples
    --------
    >>> from preimage.cli import main
    >>> main(["--version"], prog_name="preimage", standalone_mode=False)  # doctest: +ELLIPSIS
    preimage, version ...
    0
    """


@main.command()
@click.option("--n-train", default=2000, type=click.IntRange(10), help="Clean training digits.")
@click.option("--n-test", default=200, type=click.IntRange(10), help="Noisy test digits.")
@click.option(
    "--noise",
    default="gaussian",
    type=click.Choice(list(NOISE_MODELS)),
    help="Noise model (Mika et al.).",
)
@click.option(
    "--level",
    type=click.FloatRange(0, 10),
    help="Noise level: std of Gaussian noise (0.5; at most 10) or speckle probability (0.4).",
)
@seed_option
@click.option(
    "--output-dir",
    default="preimage-demo",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the image grid goes (existing files are never overwritten).",
)
@quiet_option("Print only the results.")
def demo(n_train, n_test, noise, level, seed, output_dir, quiet):
    """Denoise real MNIST digits through kernel PCA and pre-images.

    Fits on clean training digits, adds noise to test digits, and denoises them
    with each pre-image method, beside linear PCA and scikit-learn's
    KernelPCA.inverse_transform, both tuned on the training digits only (the
    choice is printed); prints the mean squared error of each (summed over
    pixels, mean over digits) and writes an image grid.
    """
    from preimage.cli._demo import run_demo
    from preimage.io._files import atomic_write, check_writable

    if level is not None and not math.isfinite(level):
        raise bad_option("--level", f"must be a finite number, got {level}")
    if n_train + n_test > 5000:
        raise click.BadParameter(
            f"{n_train} + {n_test} = {n_train + n_test} exceeds the 5000 bundled digits",
            param_hint="'--n-train'/'--n-test'",
        )
    if noise == "speckle" and level is not None and level > 1:
        raise bad_option("--level", f"speckle noise takes a probability in [0, 1], got {level}")
    check_writable(output_dir / "denoising.png")
    if not quiet:
        click.echo(
            f"denoising {n_test} test digits with {noise} noise; kernel PCA fitted on "
            f"{n_train} clean training digits ..."
        )
    form = "{desc} {n_fmt}/{total_fmt} [{elapsed}]"
    with bar(desc="methods", unit="method", quiet=quiet, bar_format=form) as progress:

        def echo(line):
            if not quiet:
                click.echo(line) if progress.disable else progress.write(line, file=sys.stdout)

        with ticking(progress):
            given = dict(n_train=n_train, n_test=n_test, noise=noise, level=level, seed=seed)
            result = run_demo(**given, echo=echo, progress=progress)
    click.echo(f"\n{result.source}, {result.noise} noise, {n_train} train / {n_test} test")
    click.echo(f"{'method':44} {'MSE':>7} {'seconds':>8}")
    for name, mse, seconds in result.rows:
        click.echo(f"{name:44} {mse:7.2f} {seconds:8.2f}")
    click.echo(
        "(MSE: squared error to the clean digit summed over pixels, mean over "
        "test digits; lower is better)"
    )
    for line in result.notes:
        click.echo(line)
    try:
        from preimage import plot
        from preimage.cli._demo import plot_demo

        figures_to_files()
        save = functools.partial(plot.save_figure, plot_demo(result))
        path = atomic_write(output_dir / "denoising.png", save, numbered=True)
        click.echo(f"\nimage grid written to {printable(path)}")
    except ImportError as exc:
        note(f"\nno figure: {exc}")


@main.command()
@data_argument
@output_option("Model file to write (.npz; never overwritten without --force).", dir_okay=False)
@click.option(
    "--clean",
    "clean_path",
    type=click.Path(exists=True, path_type=Path),
    help="Clean versions of DATA, row for row, read as DATA is: kernel PCA is "
    "fitted on them and the learned map on the (DATA, clean) pairs.",
)
@click.option(
    "--n-components",
    default="auto",
    callback=as_component_count,
    metavar="INTEGER|auto",
    help="Principal components kept (at most the number of samples - 1; fewer "
    "remove more noise and more detail), or 'auto': chosen from DATA on a "
    "held-out fifth of it, by the held-out denoising error with --clean (only "
    "counts that beat DATA itself; if none does, the model returns its input "
    "unchanged, with a warning), else by the held-out variance explained (the "
    "fit prints the choice; `preimage info` shows it).",
)
@click.option("--kernel", default="rbf", type=click.Choice(_FIT_KERNELS), help="The kernel.")
@click.option(
    "--gamma",
    type=click.FloatRange(0, min_open=True),
    help="Kernel width parameter [default: 1/(2 x total variance) for rbf (gaussian)].",
)
@click.option("--degree", default=3, type=click.IntRange(1), help="Polynomial kernel degree.")
@click.option(
    "--method",
    default="fixed_point",
    type=click.Choice(list(PREIMAGE_METHODS)),
    help="Pre-image method used by `preimage denoise` (any of "
    "preimage.PREIMAGE_METHODS; the fit refuses one that does not apply to "
    "the kernel).",
)
@click.option(
    "--n-landmarks",
    type=click.IntRange(1),
    help="Nyström kernel PCA over this many landmarks (for large DATA).",
)
@click.option(
    "--bounds",
    callback=as_box_bounds,
    metavar="none|data|low,high",
    help="A box the denoised samples are kept in: none, data (the range of each "
    "feature in the clean training data) or low,high for every feature [default: "
    "0,1 for a folder of .png images (the pixel range), else data (none with --method "
    "exact)].",
)
@seed_option
@data_options("Replace an existing model file.")
def fit(data, output, clean_path, n_components, seed, force, quiet, read, **params):
    """Fit a kernel PCA denoiser on DATA and save it to a model file.

    DATA holds one sample per row: .npy, .npz, .csv, or a folder of .png images
    (each image a sample, scaled to [0, 1]; colour images keep their channels,
    and `preimage denoise` writes them back in colour). The model file holds NumPy arrays and
    JSON only, safe to share and open (`preimage info MODEL`).
    """
    from preimage import KernelPCADenoiser
    from preimage.exceptions import ConfigurationWarning, NumericalWarning
    from preimage.io import save_model
    from preimage.io._files import check_writable

    landmarks, method = params["n_landmarks"], params["method"]
    if landmarks is not None and n_components != "auto" and n_components > landmarks:
        raise bad_option(
            "--n-components", f"must be <= --n-landmarks {landmarks}, got {n_components}"
        )
    check_not_existing(output, force, [("DATA", data), ("--clean", clean_path)])
    check_writable(output)
    X, source = read(data)
    clean = None if clean_path is None else read(clean_path)[0]
    if clean is not None and clean.shape != X.shape:
        raise click.ClickException(
            f"--clean {clean_path} has shape {clean.shape}, but DATA {data} has "
            f"{X.shape}; they must match row for row"
        )
    if landmarks is not None and landmarks > X.shape[0]:
        raise bad_option(
            "--n-landmarks", f"must be <= the {X.shape[0]} samples of DATA, got {landmarks}"
        )
    if n_components != "auto" and n_components >= X.shape[0]:
        n_components = max(1, X.shape[0] - 1)
        if not quiet:
            note(f"--n-components lowered to {n_components}: DATA has {X.shape[0]} samples")
    if PREIMAGE_METHODS[method].learns_from_pairs and clean is None and not quiet:
        note(
            f"warning: --method {method} without --clean learns its map from DATA's "
            "own coordinates back to DATA; noisy inputs, whose coordinates lie "
            "elsewhere, come back as blurred averages of the training samples, or "
            "worse, not denoised. Pass --clean CLEAN, the clean versions of DATA row "
            "for row."
        )
    bounds = params["bounds"] or ((0.0, 1.0) if source.kind == "png" else "auto")
    params["bounds"] = None if bounds == "none" else bounds
    denoiser = KernelPCADenoiser(n_components, random_state=seed, **params)
    with (
        warnings_as_notes(NumericalWarning, quiet),
        warnings_as_notes(ConfigurationWarning, quiet),
        activity(f"fitting on {X.shape[0]} x {X.shape[1]}", quiet=quiet),
        warnings.catch_warnings(),
    ):
        if PREIMAGE_METHODS[method].learns_from_pairs and clean is None:
            warnings.simplefilter("ignore", ConfigurationWarning)  # said above, in its words
        denoiser.fit(X, clean)
    facts = {"data": str(data), "data_kind": source.kind, "n_samples": X.shape[0]}
    facts["clean"] = None if clean_path is None else str(clean_path)
    if source.image_shape is not None:
        facts["image_shape"] = list(source.image_shape)
    path = save_model(denoiser, output, overwrite=force, metadata=facts)
    if not quiet:
        if bounds == "auto":
            bounds = "data" if denoiser.bounds_ is not None else "none"
        box = bounds if isinstance(bounds, str) else "{:g},{:g}".format(*bounds)
        click.echo(
            f"model written to {printable(path)} ({X.shape[0]} samples, {X.shape[1]} features, "
            f"{denoiser.n_components_} components, kernel "
            f"{denoiser.kpca_.kernel_!r}, method {method}, bounds {box})"
        )
        for name, value in selection_lines(denoiser.component_selection_):
            click.echo(f"  {name + ':':18} {value}")


@main.command()
@model_argument
@data_argument
@output_option(
    "Where the denoised data go: .npy, .npz, .csv, or a path without a suffix for a "
    "folder of .png images (never overwritten without --force)."
)
@click.option(
    "--image-shape",
    callback=as_image_shape,
    metavar="HEIGHTxWIDTH",
    help="The size of PNG output images when neither the model nor DATA knows it (e.g. 28x28).",
)
@click.option(
    "--batch-size",
    default=256,
    type=click.IntRange(1),
    help="Samples denoised per step of the progress bar.",
)
@data_options("Replace an existing output.")
def denoise(model_path, data, output, image_shape, batch_size, force, quiet, read):
    """Denoise DATA with the model in MODEL and write the result to -o/--output.

    DATA: .npy, .npz, .csv, or a folder of .png images, with as many
    features per sample as the model was fitted on. The output takes the kind
    its name says; PNG output keeps the input's file names.
    """
    import numpy as np

    from preimage.exceptions import NumericalWarning
    from preimage.io import check_output, load_model, write_data

    check_not_existing(output, force, [("DATA", data), ("MODEL", model_path)])
    with warnings_as_notes(UserWarning, quiet):
        model, meta = load_model(model_path, with_info=True)
    if not hasattr(model, "transform") or not hasattr(model, "kpca_"):
        raise click.ClickException(
            f"{model_path} holds a {type(model).__name__}, not a "
            "denoiser (write one with `preimage fit`)"
        )
    width = model.n_features_in_
    if image_shape is not None and image_shape[0] * image_shape[1] != width:
        raise bad_option(
            "--image-shape",
            f"{image_shape[0]}x{image_shape[1]} is {image_shape[0] * image_shape[1]} "
            f"pixels, but the model's samples have {width} values",
        )
    # The size `preimage fit` recorded: used only without --image-shape, and
    # checked then (the file may have been altered).
    recorded = recorded_image_shape(model_path, meta, width, check=image_shape is None)
    known = image_shape or recorded
    # Before reading DATA, all but a PNG image size that DATA may give.
    pending = output.suffix == "" and known is None
    check_output(output, None if pending else width, image_shape=known, overwrite=force)
    X, source = read(data)
    if X.shape[1] != width:
        hint = f" (images of {recorded[0]}x{recorded[1]})" if recorded else ""
        raise click.ClickException(
            f"DATA {data} has {X.shape[1]} features per sample, but "
            f"the model was fitted on {width}{hint}"
        )
    if image_shape is None and source.image_shape is None:
        image_shape = recorded
    if pending and source.image_shape is None and math.isqrt(width) ** 2 != width:
        raise click.ClickException(
            f"{output}: cannot tell the image size: {width} values per sample is not a "
            "perfect square; pass --image-shape HEIGHTxWIDTH"
        )
    check_output(output, width, source=source, image_shape=image_shape, overwrite=force)
    denoised = np.empty(X.shape, dtype=np.result_type(X.dtype, np.float32))
    with (
        warnings_as_notes(NumericalWarning, quiet),
        bar(total=X.shape[0], desc="denoising", unit="sample", quiet=quiet) as progress,
    ):
        for start in range(0, X.shape[0], batch_size):
            stop = min(start + batch_size, X.shape[0])
            denoised[start:stop] = model.transform(X[start:stop])
            progress.update(stop - start)
    if not np.all(np.isfinite(denoised)):
        raise click.ClickException("the denoised data are not all finite; nothing written")
    path = write_data(output, denoised, source=source, image_shape=image_shape, overwrite=force)
    if not quiet:
        click.echo(
            f"{X.shape[0]} samples denoised with {model.method}; written to {printable(path)}"
        )


@main.command()
@model_argument
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='The metadata as JSON (numbers that are not finite as the strings "nan", "inf", "-inf").',
)
def info(model_path, as_json):
    """Describe a model file: what it holds and how it was made.

    The model is loaded and checked as `preimage denoise` loads it (nothing
    unpickled, memory bounded, checksums and consistency verified); the estimator,
    parameters and summary shown are the loaded model's. With `$PREIMAGE_MODEL_KEY`
    set, the signature is verified with that key (an unsigned file or a wrong
    signature is refused). Text from the file is shown with control and other unprintable
    characters escaped.
    """
    from preimage.io import model_info

    with warnings_as_notes(UserWarning):
        meta = model_info(model_path, check_state=True)
    if as_json:
        click.echo(json_text(meta))
    else:
        click.echo("\n".join(info_lines(meta, model_path)))
