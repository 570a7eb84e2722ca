"""The engine's floor for the one-shot job: a C program that makes a WebKitGTK view, loads the
bench page and evaluates document.title (scripts/bench_floor.c), against `headway load --script`,
both on one Xvfb started beforehand, in alternation. What is left between them is Headway's own
cost; what is left between the floor and the peer is the engine's and the peer's."""
import os, pathlib, shutil, subprocess, tempfile

import benchlib
from benchlib import median, measured, note

HERE = pathlib.Path(__file__).resolve().parent


def compiled():
    swift = shutil.which("swift")
    toolchain_clang = pathlib.Path(swift).resolve().parent / "clang" if swift else None
    compiler = shutil.which("cc") or shutil.which("clang") or \
        (str(toolchain_clang) if toolchain_clang and toolchain_clang.exists() else None)
    if not compiler:
        benchlib.fail("bench floor: no C compiler (cc or the Swift toolchain's clang)")
    flags = benchlib.run(["pkg-config", "--cflags", "--libs", "webkit2gtk-4.1"]).stdout.split()
    directory = pathlib.Path(tempfile.mkdtemp(prefix="headway-floor-"))
    result = subprocess.run([compiler, "-O2", "-o", str(directory / "bench_floor"), str(HERE / "bench_floor.c"), *flags],
                            capture_output=True, text=True)
    if result.returncode != 0:
        shutil.rmtree(directory, ignore_errors=True)
        benchlib.fail(f"bench floor: {compiler} could not build bench_floor.c: {result.stderr.strip()[-400:]}")
    return directory / "bench_floor"


class Xvfb:
    """A private Xvfb, as Headway starts its own, stopped on exit."""

    def __enter__(self):
        read, write = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp",
                                      "-noreset"], pass_fds=[write], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        # Xvfb writes the number once it listens; the pipe stays open until it stops.
        self.pipe = read
        text = b""
        while not text.endswith(b"\n"):
            chunk = os.read(read, 32)
            if not chunk:
                break
            text += chunk
        number = text.decode().strip()
        if not number:
            self.proc.kill()
            self.proc.wait()
            os.close(read)
            benchlib.fail("bench floor: Xvfb did not start")
        self.display = f":{number}"
        return self

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        os.close(self.pipe)


def rows(headway, site, page, script, runs):
    binary = compiled()
    try:
        with Xvfb() as xvfb, benchlib.Server(headway, site) as server:
            env = dict(os.environ, DISPLAY=xvfb.display)
            url = server.url + page
            commands = {"floor": [str(binary), url], "headway": [str(headway), "load", url, "--script", str(script)]}
            walls = {name: [] for name in commands}
            for i in range(runs):
                for name, args in commands.items():
                    note(f"floor run {i + 1}/{runs}: {name}")
                    walls[name].append(measured(args, env=env)[0])
    finally:
        shutil.rmtree(binary.parent, ignore_errors=True)
    floor, ours = median(walls["floor"]), median(walls["headway"])
    return [["one job, engine floor: a C program (WebKit view, load, document.title), Xvfb already running",
             f"{floor * 1000:.0f} ms", "1.00", "", ""],
            ["one job: headway load --script on the same Xvfb", f"{ours * 1000:.0f} ms", f"{ours / floor:.2f} of floor", "", ""]]
