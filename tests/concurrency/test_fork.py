"""A child process made by fork: after the package was used, every call
raises ClientClosed at once, saying to use spawn (the runtime's threads and
the connections stayed in the parent), never hangs; children made by spawn,
or forked before the package was used, work. Each case runs in a Python
process of its own, so that pytest itself is never forked."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no fork on Windows")


def run(folder: Path, script: str) -> str:
    """Runs ``script`` in a fresh interpreter, from a file (multiprocessing's
    spawn imports the main module again); its output, once it exited 0."""
    path = folder / "script.py"
    path.write_text(textwrap.dedent(script))
    done = subprocess.run(
        [sys.executable, str(path)],
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_child_forked_after_a_call_fails_at_once_and_the_parent_goes_on(tmp_path):
    out = run(
        tmp_path,
        """
        import os, time
        import marketcurves as mc
        from marketcurves.testing import Emulator

        with Emulator(time_scale=0) as em, em.client() as client:
            curves = len(client.catalogue())
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    began = time.monotonic()
                    for call in (client.catalogue, lambda: em.client().catalogue()):
                        try:
                            call()
                        except mc.ClientClosed as error:
                            assert "spawn" in str(error) and "fork" in str(error), error
                        else:
                            raise AssertionError("the call went through in the child")
                    assert time.monotonic() - began < 5
                    client.close()  # the parent's to close: nothing happens here
                    code = 0
                finally:
                    os._exit(code)
            _, status = os.waitpid(pid, 0)
            assert os.waitstatus_to_exitcode(status) == 0, status
            # The parent's client and emulator are untouched.
            assert len(client.catalogue()) == curves
            print("ok", curves)
        """,
    )
    assert out.startswith("ok")


def test_multiprocessing_fork_raises_and_spawn_works(tmp_path):
    out = run(
        tmp_path,
        """
        import multiprocessing as mp
        import marketcurves as mc
        from marketcurves.testing import Emulator

        def count(base_url, token):
            with mc.Client(base_url=base_url, token=token) as client:
                return len(client.catalogue())

        if __name__ == "__main__":
            with Emulator(time_scale=0) as em, em.client() as client:
                expected = len(client.catalogue())
                args = (em.base_url, em.token())
                with mp.get_context("spawn").Pool(1) as pool:
                    assert pool.apply(count, args) == expected
                with mp.get_context("fork").Pool(1) as pool:
                    try:
                        pool.apply(count, args)
                    except mc.ClientClosed as error:
                        assert "spawn" in str(error), error
                    else:
                        raise AssertionError("a forked worker went through")
            print("ok")
        """,
    )
    assert out.strip() == "ok"


def test_a_child_forked_before_the_package_was_used_works(tmp_path):
    out = run(
        tmp_path,
        """
        import os
        import marketcurves as mc
        from marketcurves.testing import Emulator

        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                with Emulator(time_scale=0) as em, em.client() as client:
                    assert len(client.catalogue()) > 0
                code = 0
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, status
        print("ok")
        """,
    )
    assert out.strip() == "ok"
