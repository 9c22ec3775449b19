"""Faults of files and processes: a read-only or full disk, a folder where a
file goes, two writers racing for one name, a writer killed or terminated
part way, an absurd noise level.

Each ends in a one-line refusal (exit status 1, or 2 for a usage error; no
traceback) and no file is lost, clobbered or left half-written. The rows of
docs/bad-input.md ("Faults of files and processes") name these tests.

Real faults need a file system of their own: a small or read-only tmpfs
mounted in a private mount namespace (``unshare``); where that is not
available those tests are skipped, and the same faults are raised by a
patched writer, which runs everywhere.
"""

import errno
import os
from pathlib import Path
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

from cli_run import ENV, cli_runner, run_cli
import numpy as np
import pytest

from preimage.cli import main
from preimage.io import _files, read_data, write_data
from reproductions import Report, Table, write_report

_TEMP = re.compile(r"\..+\.preimage-[0-9a-f]{6}-[0-9]+-[0-9a-f]{8}\.(tmp|old)(\.\w+)?")


def _listing(folder):
    return sorted(p.name for p in Path(folder).iterdir())


def _temps(folder):
    return [name for name in _listing(folder) if _TEMP.fullmatch(name)]


def _invoke(*args):
    result = cli_runner().invoke(main, [str(a) for a in args])
    # CliRunner catches what would have been a traceback: none may escape.
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def _one_line_refusal(result, code=1):
    assert result.exit_code == code, (result.output, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """A linear-kernel denoiser of 16 features (fast to apply), saved as a model file."""
    from preimage import KernelPCADenoiser
    from preimage.io import save_model

    folder = tmp_path_factory.mktemp("model")
    X = np.random.default_rng(0).random((40, 16))
    denoiser = KernelPCADenoiser(3, kernel="linear", method="exact").fit(X)
    return save_model(denoiser, folder / "model.npz")


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "x.npy"
    np.save(path, np.random.default_rng(1).random((30, 16)))
    return path


# --- the file system refuses: read-only, full --------------------------------


def _unshare(script, cwd):
    """Run the shell `script` as root of a private mount namespace, or skip."""
    if shutil.which("unshare") is None:
        pytest.skip("no unshare")
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
        capture_output=True,
    )
    if probe.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs in a private namespace: {probe.stderr!r}")
    env = {**ENV, "PY": sys.executable}
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", script],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _after_run(result):
    """(exit status of the command, what the folder held after it) from the script's tail."""
    status = int(re.search(r"^status=(\d+)$", result.stdout, re.M).group(1))
    listing = re.search(r"^listing:(.*)$", result.stdout, re.M).group(1).split()
    return status, listing


def test_read_only_output_is_refused_before_the_work(model, data, tmp_path):
    (tmp_path / "ro").mkdir()
    result = _unshare(
        "mount -t tmpfs -o size=1m tmpfs ro && mount -o remount,ro ro && "
        f'"$PY" -m preimage.cli denoise {model} x.npy -o ro/out.csv; '
        'echo "status=$?"; echo "listing:$(ls -A ro)"',
        cwd=tmp_path,
    )
    status, listing = _after_run(result)
    assert status == 1, result.stderr
    assert result.stderr.strip() == "Error: ro/out.csv: cannot write in ro (Read-only file system)"
    assert listing == []


def test_a_writer_refused_by_a_read_only_file_system(model, data, tmp_path, monkeypatch):
    import preimage.io._data_write as writer

    def read_only(tmp, array):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(tmp))

    monkeypatch.setattr(writer, "_save_npy", read_only)
    line = _one_line_refusal(_invoke("denoise", model, data, "-o", tmp_path / "out.npy"))
    assert line == f"Error: {tmp_path / 'out.npy'}: Read-only file system"
    assert _listing(tmp_path) == ["x.npy"]


def _denoise_onto_a_full_disk(model, tmp_path, out, *, before="", options="", after=""):
    """`preimage denoise` of 2,000 samples to `full/out` on a 64 kB tmpfs, the
    shell's `before` run once it is mounted and its `after` once the command
    ended; the completed process."""
    np.save(tmp_path / "x.npy", np.random.default_rng(1).random((2000, 16)))
    (tmp_path / "full").mkdir()
    return _unshare(
        f"mount -t tmpfs -o size=64k tmpfs full && {before}"
        f'"$PY" -m preimage.cli denoise {model} x.npy -o full/{out} {options} --quiet; '
        f'echo "status=$?"; echo "listing:$(ls -A full)"; {after}',
        cwd=tmp_path,
    )


@pytest.mark.parametrize("out", ["out.csv", "imgs"])
def test_full_disk_leaves_nothing_behind(model, tmp_path, out):
    result = _denoise_onto_a_full_disk(model, tmp_path, out, options="--image-shape 4x4")
    status, listing = _after_run(result)
    assert status == 1, result.stderr
    assert result.stderr.strip() == f"Error: full/{out}: No space left on device"
    assert listing == []


@pytest.mark.parametrize("out", ["out.csv", "out.npz", "imgs"])
def test_a_writer_that_finds_the_disk_full(model, data, tmp_path, monkeypatch, out):
    from PIL import Image

    import preimage.io._data_write as writer

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(writer, "_sync", full)  # after the data went to the temporary file
    monkeypatch.setattr(Image.Image, "save", full)
    line = _one_line_refusal(_invoke("denoise", model, data, "-o", tmp_path / out))
    assert line == f"Error: {tmp_path / out}: No space left on device"
    assert _listing(tmp_path) == ["x.npy"]


def test_force_on_a_full_disk_keeps_the_original(model, tmp_path):
    result = _denoise_onto_a_full_disk(
        model,
        tmp_path,
        "out.csv",
        before="printf 'original\\n' > full/out.csv && ",
        options="--force",
        after='echo "kept:$(cat full/out.csv)"',
    )
    status, listing = _after_run(result)
    assert status == 1, result.stderr
    assert result.stderr.strip() == "Error: full/out.csv: No space left on device"
    assert listing == ["out.csv"]
    assert re.search(r"^kept:original$", result.stdout, re.M), result.stdout


@pytest.mark.parametrize("out", ["out.csv", "out.npz", "imgs"])
def test_a_writer_that_finds_the_disk_full_keeps_what_force_would_replace(
    model, data, tmp_path, monkeypatch, out
):
    from PIL import Image

    import preimage.io._data_write as writer

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    if out == "imgs":
        (tmp_path / out).mkdir()
        (tmp_path / out / "0.png").write_bytes(b"original")
    else:
        (tmp_path / out).write_bytes(b"original")
    monkeypatch.setattr(writer, "_sync", full)
    monkeypatch.setattr(Image.Image, "save", full)
    args = ("denoise", model, data, "-o", tmp_path / out, "--force", "--image-shape", "4x4")
    line = _one_line_refusal(_invoke(*args))
    assert line == f"Error: {tmp_path / out}: No space left on device"
    assert _listing(tmp_path) == sorted([out, "x.npy"])
    kept = tmp_path / out / "0.png" if out == "imgs" else tmp_path / out
    assert kept.read_bytes() == b"original"
    if out == "imgs":
        assert _listing(tmp_path / out) == ["0.png"]


@pytest.mark.slow
def test_reproduce_on_a_full_disk_leaves_no_folder(tmp_path):
    (tmp_path / "full").mkdir()
    result = _unshare(
        "mount -t tmpfs -o size=64k tmpfs full && "
        '"$PY" -m reproductions toy-2d --quick --quiet --output-dir full/results; '
        'echo "status=$?"; echo "listing:$(ls -A full/results)"',
        cwd=tmp_path,
    )
    status, listing = _after_run(result)
    assert status == 1, result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        "Error: full/results/toy-2d-quick: No space left on device"
    )
    assert "Traceback" not in result.stderr
    assert listing == []


def test_a_report_that_fails_part_way_leaves_no_folder(tmp_path):
    def draw():
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    report = Report(
        "exp", "t", "p", "d", tables=[Table("t", "t", ["a"], [[1.0]])], figures={"fig": draw}
    )
    with pytest.raises(OSError, match=r"/exp: No space left on device$"):
        write_report(report, tmp_path)
    assert _listing(tmp_path) == []


# --- a folder where a file goes ----------------------------------------------


def test_force_never_replaces_a_folder_with_a_file(model, data, tmp_path):
    (tmp_path / "d.npy").mkdir()
    (tmp_path / "d.npy" / "kept.txt").write_text("kept")
    for force, found in [
        (["--force"], "d.npy: exists and is a folder; refusing to replace a folder"),
        ([], "d.npy' exists; refusing to overwrite it"),
    ]:
        line = _one_line_refusal(_invoke("denoise", model, data, "-o", tmp_path / "d.npy", *force))
        assert found in line
    # fit's -o takes only a file: a usage error
    usage = _invoke("fit", data, "-o", tmp_path / "d.npy", "--force")
    assert usage.exit_code == 2 and "d.npy' is a directory" in usage.stderr
    with pytest.raises(IsADirectoryError, match="refusing to replace a folder with a file"):
        _files.atomic_write(tmp_path / "d.npy", lambda tmp: None, overwrite=True)
    assert _listing(tmp_path) == ["d.npy", "x.npy"]
    assert _listing(tmp_path / "d.npy") == ["kept.txt"]


# --- checked before the work -------------------------------------------------


@pytest.mark.slow
def test_outputs_are_checked_before_the_data_are_read(model, tmp_path):
    (tmp_path / "garbage.npy").write_bytes(b"not an array")  # reading it would fail
    (tmp_path / "f").write_text("a file")
    for args, found in [
        (("denoise", model, "garbage.npy", "-o", "out.txt"), "unsupported kind of output '.txt'"),
        (("denoise", model, "garbage.npy", "-o", "f/out.npy"), "cannot create the folder f"),
        (("fit", "garbage.npy", "-o", "f/m.npz"), "cannot create the folder f"),
        (("demo", "--output-dir", "f/demo"), "cannot create the folder f"),
    ]:
        result = run_cli(*args, cwd=tmp_path)
        assert result.returncode == 1, (args, result.stderr)
        assert result.stderr.count("\n") == 1 and found in result.stderr, (args, result.stderr)
    result = run_cli(
        "denoise", model, "garbage.npy", "-o", "o", "--image-shape", "3x3", cwd=tmp_path
    )
    assert result.returncode == 2 and "--image-shape" in result.stderr
    assert "16 values" in result.stderr
    assert _listing(tmp_path) == ["f", "garbage.npy"]


@pytest.mark.parametrize("level", ["1e308", "inf", "nan", "-1", "11"])
def test_demo_refuses_a_noise_level_out_of_range(level, tmp_path):
    result = _invoke("demo", "--level", level, "--output-dir", tmp_path / "d")
    assert result.exit_code == 2  # a usage error: its message, after the usage line
    assert re.search(r"^Error: Invalid value for '--level': ", result.stderr, re.M)
    assert _listing(tmp_path) == []


# --- two writers, one name ---------------------------------------------------


def _race(write_one, n=2):
    """Run `write_one(i)` in `n` threads released together; (results, errors)."""
    results, errors = [None] * n, [None] * n

    def run(i):
        try:
            results[i] = write_one(i)
        except Exception as exc:
            errors[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results, errors


@pytest.fixture(params=["links", "no-links"])
def file_system(request, monkeypatch):
    """With hard links, or as a file system without them."""
    if request.param == "no-links":

        def link(src, dst, **kwargs):
            raise OSError(errno.EPERM, "Operation not permitted")

        monkeypatch.setattr(os, "link", link)
    return request.param


def test_two_writers_of_one_file_one_wins(tmp_path, file_system):
    barrier = threading.Barrier(2)
    contents = [b"first " * 50_000, b"second " * 50_000]

    def write_one(i):
        def write(tmp):
            barrier.wait(10)  # both are past the check that the name is free
            Path(tmp).write_bytes(contents[i])

        return _files.atomic_write(tmp_path / "r.csv", write)

    results, errors = _race(write_one)
    winners = [i for i in range(2) if errors[i] is None]
    assert len(winners) == 1
    loser = errors[1 - winners[0]]
    assert isinstance(loser, FileExistsError)
    assert "r.csv: already exists; refusing to overwrite it" in str(loser)
    assert (tmp_path / "r.csv").read_bytes() == contents[winners[0]]
    assert _listing(tmp_path) == ["r.csv"]


def test_two_writers_of_one_folder_one_wins(tmp_path, file_system):
    barrier = threading.Barrier(2)
    X = [np.zeros((3, 4)), np.ones((5, 4))]

    def write_one(i):
        from PIL import Image

        def fill(folder):
            barrier.wait(10)
            for j, row in enumerate(X[i]):
                image = Image.fromarray((row.reshape(2, 2) * 255).astype(np.uint8))
                image.save(folder / f"{j:06d}.png", format="PNG")

        return _files.atomic_dir(tmp_path / "imgs", fill)

    results, errors = _race(write_one)
    winners = [i for i in range(2) if errors[i] is None]
    assert len(winners) == 1
    assert isinstance(errors[1 - winners[0]], FileExistsError)
    np.testing.assert_array_equal(read_data(tmp_path / "imgs")[0], X[winners[0]])
    assert _listing(tmp_path) == ["imgs"]


def test_two_reports_at_once_take_two_names(tmp_path, file_system):
    barrier = threading.Barrier(2)

    def write_one(i):
        def draw():
            barrier.wait(10)
            import matplotlib.figure

            return matplotlib.figure.Figure()

        report = Report(
            "exp", "t", "p", "d", tables=[Table("t", "t", ["a"], [[i]])], figures={"f": draw}
        )
        return write_report(report, tmp_path)

    results, errors = _race(write_one)
    assert errors == [None, None]
    assert sorted(p.name for p in results) == ["exp", "exp-1"]
    assert sorted(results[i].joinpath("t.csv").read_text() for i in range(2)) == [
        "a\n0\n",
        "a\n1\n",
    ]
    for folder in results:
        assert _listing(folder) == ["README.md", "f.png", "t.csv", "t.md"]
    assert _listing(tmp_path) == ["exp", "exp-1"]


def test_two_numbered_files_at_once_take_two_names(tmp_path, file_system):
    barrier = threading.Barrier(2)

    def write_one(i):
        def write(tmp):
            barrier.wait(10)
            Path(tmp).write_text(str(i))

        return _files.atomic_write(tmp_path / "denoising.png", write, numbered=True)

    results, errors = _race(write_one)
    assert errors == [None, None]
    assert sorted(p.name for p in results) == ["denoising-1.png", "denoising.png"]
    assert sorted(p.read_text() for p in results) == ["0", "1"]


@pytest.mark.slow
def test_two_denoise_runs_at_once_one_wins(model, tmp_path):
    np.save(tmp_path / "x.npy", np.random.default_rng(1).random((20_000, 16)))
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "preimage.cli", "denoise", model, "x.npy", "-o", "r.csv"],
            cwd=tmp_path,
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outcomes = sorted((run.wait(300), run.stderr.read()) for run in runs)
    assert [status for status, _ in outcomes] == [0, 1]
    # Refused when it starts, or when it finds the name taken as it writes.
    (line,) = outcomes[1][1].strip().splitlines()
    assert re.fullmatch(
        r"Error: '?r\.csv'?:? (already )?exists; refusing to overwrite it .*", line
    )
    X = np.loadtxt(tmp_path / "r.csv", delimiter=",")
    assert X.shape == (20_000, 16)
    assert _listing(tmp_path) == ["r.csv", "x.npy"]


# --- killed, terminated, interrupted -----------------------------------------


def _has_content(path):
    try:
        return any(path.iterdir()) if path.is_dir() else path.stat().st_size > 0
    except FileNotFoundError:
        return False


def _as_in_a_terminal():
    """SIGINT as a terminal's foreground job receives it: not ignored. A test
    run started in the background of a shell without job control inherits
    SIGINT ignored, and the command line rightly leaves an ignored signal
    ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_and_catch_writing(model, tmp_path, out, n):
    """Start `preimage denoise` of `n` samples to `out` and wait until it writes."""
    np.save(tmp_path / "x.npy", np.random.default_rng(1).random((n, 16)))
    run = subprocess.Popen(
        [sys.executable, "-m", "preimage.cli", "denoise", model, "x.npy", "-o", out, "--quiet"]
        + (["--image-shape", "4x4"] if not Path(out).suffix else []),
        cwd=tmp_path,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_as_in_a_terminal,
    )
    deadline = time.monotonic() + 120
    # Not the empty probe `check_writable` makes and removes before denoising:
    # a temporary that has content.
    while not any(_has_content(tmp_path / name) for name in _temps(tmp_path)):
        if run.poll() is not None or time.monotonic() > deadline:
            run.kill()
            pytest.fail(f"the run ended before it was caught writing: {run.stderr.read()}")
        time.sleep(0.005)
    time.sleep(0.2)  # well into the writing
    return run


@pytest.mark.slow
@pytest.mark.parametrize(("out", "n"), [("out.csv", 200_000), ("imgs", 30_000)])
def test_kill_9_part_way_leaves_a_temporary_the_next_write_removes(model, tmp_path, out, n):
    run = _start_and_catch_writing(model, tmp_path, out, n)
    run.kill()
    run.wait()
    (left,) = _temps(tmp_path)
    assert not (tmp_path / out).exists()
    # What must stay: another live writer's temporary (this process's, pid 1's)
    # and names that only look like one.
    host = left.split(".preimage-")[1].split("-")[0]
    kept = [
        f".{out}.preimage-{host}-{os.getpid()}-0123abcd.tmp",
        f".{out}.preimage-{host}-1-0123abcd.tmp",
        f".{out}.preimage-{host}-{run.pid}-0123abcd.tmp.bak~",
        f".{out}.preimage-{run.pid}-0123abcd.tmp",
        f"{out}.preimage-{host}-{run.pid}-0123abcd.tmp",
    ]
    for name in kept:
        (tmp_path / name).write_text("someone else's")
    write_data(tmp_path / "next.npy", np.zeros((1, 1)))
    assert _listing(tmp_path) == sorted(kept + ["next.npy", "x.npy"])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sig", "status", "said"),
    [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")],
)
@pytest.mark.parametrize(("out", "n"), [("out.csv", 200_000), ("imgs", 30_000)])
def test_a_signal_part_way_removes_the_temporaries(model, tmp_path, out, n, sig, status, said):
    run = _start_and_catch_writing(model, tmp_path, out, n)
    run.send_signal(sig)
    assert run.wait(60) == status
    assert run.stderr.read().strip() == said
    assert _listing(tmp_path) == ["x.npy"]


def test_an_interrupt_in_process_removes_the_temporaries(model, data, tmp_path, monkeypatch):
    import preimage.io._data_write as writer

    def interrupted(tmp, *args):
        Path(tmp).write_bytes(b"half")
        raise KeyboardInterrupt

    monkeypatch.setattr(writer, "_save_csv", interrupted)
    result = _invoke("denoise", model, data, "-o", tmp_path / "out.csv")
    assert result.exit_code == 130
    assert result.stderr.strip() == "interrupted"
    assert _listing(tmp_path) == ["x.npy"]


#: A signal that lands while a command imports its extension modules, as pybind11
#: reports it (SciPy's extensions): the signal's exception replaced by
#: ImportError("initialization failed"), here without even its context. Through
#: an exec() too, after which CPython would die by SIGINT at exit (status -2).
_CUT_SHORT = """
import importlib.machinery, os, signal, sys, time

class CutShort:
    def find_spec(self, name, path=None, target=None):
        return importlib.machinery.ModuleSpec(name, self) if name == "numpy" else None
    def create_module(self, spec):
        return None
    def exec_module(self, module):
        try:  # in an exec() of a string, as SciPy's array_api_compat imports NumPy
            exec("os.kill(os.getpid(), SIGNAL); time.sleep(60)")
        except BaseException:
            raise ImportError("initialization failed") from None

sys.meta_path.insert(0, CutShort())
from preimage.cli import main
main(sys.argv[1:], prog_name="preimage")
"""


@pytest.mark.parametrize(
    ("sig", "status", "said"),
    [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")],
)
def test_a_signal_while_the_command_starts_up_is_that_signal(tmp_path, sig, status, said):
    (tmp_path / "m.npz").write_bytes(b"")  # `info` imports NumPy before it reads MODEL
    # Run with -m, as `python -m preimage.cli` runs (-c exits by another path).
    (tmp_path / "cut_short.py").write_text(_CUT_SHORT.replace("SIGNAL", str(int(sig))))
    run = subprocess.run(
        [sys.executable, "-m", "cut_short", "info", "m.npz"],
        cwd=tmp_path,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_as_in_a_terminal,
    )
    assert (run.returncode, run.stderr.strip()) == (status, said), run.stderr


# --- stale temporaries -------------------------------------------------------


def test_stale_temporaries_only_of_the_pattern_and_of_dead_writers(tmp_path):
    host = _files._host()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale_file = f".r.csv.preimage-{host}-{dead.pid}-0123abcd.tmp.csv"
    stale_dir = f".imgs.preimage-{host}-{dead.pid}-0123abcd.tmp"
    old_unswapped = f".kept.preimage-{host}-{dead.pid}-0123abcd.old"  # its folder is gone
    old_swapped = f".imgs.preimage-{host}-{dead.pid}-4567abcd.old"
    ancient = f".r.csv.preimage-ffffff-{os.getpid()}-89abcdef.tmp.csv"  # other host, a week old
    foreign = f".r.csv.preimage-ffffff-{dead.pid}-0123abcd.tmp.csv"  # other host, fresh
    for name in (stale_file, ancient, foreign):
        (tmp_path / name).write_text("x")
    for name in (stale_dir, old_unswapped, old_swapped, "imgs"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a.png").write_text("x")
    week = time.time() - 7 * 24 * 3600
    os.utime(tmp_path / ancient, (week, week))
    _files.remove_stale_temps(tmp_path)
    assert _listing(tmp_path) == sorted([foreign, old_unswapped, "imgs"])


def test_a_symlink_of_the_pattern_is_removed_not_followed(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / "target").mkdir()
    (tmp_path / "target" / "precious").write_text("x")
    link = tmp_path / f".r.preimage-{_files._host()}-{dead.pid}-0123abcd.tmp"
    link.symlink_to(tmp_path / "target")
    _files.remove_stale_temps(tmp_path)
    assert _listing(tmp_path) == ["target"]
    assert _listing(tmp_path / "target") == ["precious"]


def test_errors_name_the_file_asked_for_not_the_temporary(tmp_path):
    def fail(tmp):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp))

    with pytest.raises(OSError, match=r"/r\.csv: No space left on device$") as caught:
        _files.atomic_write(tmp_path / "r.csv", fail)
    assert caught.value.errno == errno.ENOSPC
    assert _listing(tmp_path) == []
    text = f"{tmp_path}/.r.csv.preimage-abcdef-12-0123abcd.tmp.csv: No space"
    assert _files.without_temp_names(text) == f"{tmp_path}/r.csv: No space"


def test_the_documented_faults_name_tests_that_exist():
    """docs/bad-input.md lists each fault with the tests that check it."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "bad-input.md").read_text()
    section = text.split("## Faults of files and processes", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`(test_\w+)`", section))
    tests = {name for name in globals() if name.startswith("test_")}
    assert named and named <= tests, named - tests
