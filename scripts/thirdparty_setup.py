"""The venv and the sdist of scripts/third-party-suite: pinned, from PyPI, made once and kept."""
import hashlib
import shutil
import subprocess
import tarfile
from pathlib import Path

from thirdparty_procs import SuiteError, log

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "Tests" / "ThirdParty" / "capybara"
CAPY = "capybara-py==0.1.6"
CAPY_SHA256 = "3d05ab52e6bc0730d7626ee2bf08c227dbd367c629c3d3c89b93cbbd3cb08baf"


def run(argv, what, timeout, **kwargs):
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout,
                              **kwargs)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SuiteError(f"{what}: {error}")
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()[-1]
        raise SuiteError(f"{what} failed ({done.returncode}): {last}")


def make_venv(venv, python, requirements_path):
    """A venv with the pins of `requirements_path`, from PyPI, remade only when the pins or the interpreter
    change; returns its python."""
    requirements = requirements_path.read_bytes()
    try:
        version = subprocess.run([python, "-c", "import sys; print(sys.version)"], capture_output=True,
                                 text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SuiteError(f"cannot run {python}: {error}")
    stamp = hashlib.sha256(requirements + version.encode()).hexdigest()
    if not (venv / "bin/python").exists() or _read(venv / ".headway-stamp") != stamp:
        log(f"making the venv in {venv} from PyPI (pinned in {requirements_path.relative_to(ROOT)})")
        shutil.rmtree(venv, ignore_errors=True)
        run([python, "-m", "venv", str(venv)], "python3 -m venv (Debian: apt-get install python3-venv)", 300)
        run([str(venv / "bin/python"), "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r",
             str(requirements_path)], f"pip install -r {requirements_path.name}", 900)
        (venv / ".headway-stamp").write_text(stamp)
    return venv / "bin/python"


def setup(cache, python):
    """The pinned venv and the unpacked sdist, remade only when the pins or the interpreter change."""
    venv = cache / "venv"
    make_venv(venv, python, HARNESS / "requirements.txt")
    source = cache / CAPY.replace("==", "-")
    if not (source / "capybara/tests/session").is_dir():
        log(f"downloading the {CAPY} sdist from PyPI")
        downloads = cache / "downloads"
        run([str(venv / "bin/python"), "-m", "pip", "download", "-q", "--disable-pip-version-check",
             "--no-binary", ":all:", "--no-deps", "-d", str(downloads), CAPY], "pip download", 300)
        tarball = downloads / (source.name + ".tar.gz")
        if hashlib.sha256(tarball.read_bytes()).hexdigest() != CAPY_SHA256:
            raise SuiteError(f"{tarball} does not have the pinned sha256 {CAPY_SHA256}")
        _unpack(tarball, cache)
    harness = cache / "harness"  # the harness runs from beside the sdist, under one rootdir
    shutil.rmtree(harness, ignore_errors=True)
    shutil.copytree(HARNESS, harness, ignore=shutil.ignore_patterns("requirements.txt", "__pycache__"))
    return venv / "bin/python", source


def _read(path):
    try:
        return path.read_text()
    except OSError:
        return None


def _unpack(tarball, cache):
    """Unpacks beside, then moves in whole: a run stopped halfway leaves no half sdist."""
    partial, name = cache / "unpacking", tarball.name.removesuffix(".tar.gz")
    shutil.rmtree(partial, ignore_errors=True)
    with tarfile.open(tarball) as archive:
        for member in archive.getmembers():
            unsafe = member.name.startswith("/") or ".." in Path(member.name).parts
            if unsafe or not (member.isfile() or member.isdir()):
                raise SuiteError(f"{tarball}: unexpected member {member.name}")
        archive.extractall(partial)
    (partial / name).rename(cache / name)
    partial.rmdir()
