"""A real Jupyter server (Notebook 7) and headless Chromium driven by
selenium, for the widgets' end-to-end suite, their benchmark and the docs'
screenshots.

Chromium and its driver are Debian's (``apt-get install chromium
chromium-driver``): nothing is downloaded. :func:`why_not` says what is
missing; the server, its kernels and the browser all stop when the session
ends, every wait bounded."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

#: Debian's chromium and chromium-driver.
CHROMIUM = os.environ.get("MARKETCURVES_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("MARKETCURVES_CHROMEDRIVER", "/usr/bin/chromedriver")
#: The longest the server, the page or a cell may take.
STARTUP = 90.0
WAIT = 60.0


#: A notebook watching the emulator's feed at 600x (ten minutes a second:
#: a curve's tenors tick every second or so): the feed and both widgets,
#: then the feed's close and the end. The test and the docs' pictures run it.
WATCH_CELLS = [
    """\
import marketcurves as mc
from marketcurves.testing import Emulator

emulator = Emulator(seed=0, time_scale=600, start="2025-06-11T09:00:00Z")
client = emulator.client()
curve = next(c for c in client.catalogue() if c.quotation != "Sales")
feed = client.live(**emulator.keepalive())
feed.subscribe(curve)
print(curve.name)""",
    "feed.widget(curve)",
    "mc.widgets.LiveBoard(feed)",
    "feed.close()",
    "client.close()\nemulator.stop()",
]


def why_not() -> str | None:
    """Why the browser suite cannot run here, or None if it can."""
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not (os.path.exists(path) or shutil.which(os.path.basename(path))):
            return f"{path} is missing: apt-get install chromium chromium-driver ({package})"
    for module, dist in (
        ("selenium", "selenium"),
        ("notebook", "notebook"),
        ("anywidget", "anywidget"),
    ):
        try:
            __import__(module)
        except ImportError:
            return f"{dist} is not installed: pip install --group browser"
    return None


def notebook(cells: list[str]) -> str:
    """A notebook of code cells, as JSON."""
    return json.dumps(
        {
            "nbformat": 4,
            "nbformat_minor": 5,
            "metadata": {
                "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
            },
            "cells": [
                {
                    "cell_type": "code",
                    "id": f"cell-{i}",
                    "metadata": {},
                    "execution_count": None,
                    "outputs": [],
                    "source": source,
                }
                for i, source in enumerate(cells)
            ],
        }
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(check: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout:g} s for {what}")
        time.sleep(0.05)


@contextlib.contextmanager
def jupyter_server(root: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """Notebook 7 serving ``root`` on loopback; yields its base URL (with
    the token as a query)."""
    port, token = _free_port(), os.urandom(12).hex()
    home = Path(tempfile.mkdtemp(prefix="mc-jupyter-"))
    environment = {
        **os.environ,
        **(env or {}),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_PLATFORM_DIRS": "1",
        "IPYTHONDIR": str(home / "ipython"),
    }
    command = [
        sys.executable, "-m", "notebook", "--no-browser", f"--port={port}",
        "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}", "--ServerApp.disable_check_xsrf=True",
        "--allow-root", "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--ServerApp.terminals_enabled=False", "--JupyterNotebookApp.expose_app_in_browser=True",
        "--LabApp.extension_manager=readonly",
    ]  # fmt: skip
    log = (home / "server.log").open("wb")
    server = subprocess.Popen(command, env=environment, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:

        def up() -> bool:
            if server.poll() is not None:
                raise RuntimeError(
                    f"the Jupyter server exited: {(home / 'server.log').read_text()}"
                )
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2):
                    return True
            except OSError:
                return False

        wait_for(up, "the Jupyter server", STARTUP)
        yield f"{base}|{token}"
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=15)
        log.close()
        shutil.rmtree(home, ignore_errors=True)


@contextlib.contextmanager
def chromium(width: int = 1100, height: int = 1400) -> Iterator[Any]:
    """Headless Chromium under selenium's driver (Debian's, given by path:
    selenium downloads nothing)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        f"--window-size={width},{height}", "--hide-scrollbars", "--no-first-run",
    ):  # fmt: skip
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


class Page:
    """A notebook open in Notebook 7, its cells run one by one."""

    def __init__(self, driver: Any, base: str, name: str) -> None:
        url, token = base.split("|")
        self.driver = driver
        driver.get(f"{url}/notebooks/{name}?token={token}")
        wait_for(lambda: self._cells(), "the notebook's cells", STARTUP)
        # The app (exposed by the server's expose_app_in_browser) with the
        # notebook open and its kernel ready.
        wait_for(
            lambda: self.script(
                "const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
                "return !!(w && w.content && w.sessionContext && w.sessionContext.session"
                " && w.sessionContext.session.kernel"
                " && w.sessionContext.session.kernel.connectionStatus === 'connected');"
            ),
            "the notebook and its kernel",
            STARTUP,
        )
        self.next = 0

    def _cells(self) -> list[Any]:
        from selenium.webdriver.common.by import By

        return list(self.driver.find_elements(By.CSS_SELECTOR, ".jp-Notebook .jp-Cell"))

    def script(self, code: str, *args: Any) -> Any:
        return self.driver.execute_script(code, *args)

    def run_cell(self, timeout: float = WAIT) -> None:
        """Runs the next cell (the app's own command), waiting for its
        execution count."""
        index = self.next
        self.script(
            "const panel = window.jupyterapp.shell.currentWidget;"
            "panel.content.activeCellIndex = arguments[0];"
            "window.jupyterapp.commands.execute('notebook:run-cell');",
            index,
        )

        def ran() -> bool:
            return bool(
                self.script(
                    "const cell = window.jupyterapp.shell.currentWidget.content.widgets[arguments[0]];"
                    "return cell.model.executionCount !== null"
                    " && cell.promptNode && !cell.promptNode.textContent.includes('*');",
                    index,
                )
            )

        wait_for(ran, f"cell {index} to run", timeout)
        self.next += 1

    def output_text(self, index: int) -> str:
        from selenium.webdriver.common.by import By

        return "\n".join(
            e.text for e in self._cells()[index].find_elements(By.CSS_SELECTOR, ".jp-OutputArea")
        )

    def shot(self, css: str) -> bytes:
        """A PNG of the element ``css`` finds, found anew (an output may be
        drawn again meanwhile)."""
        from selenium.common.exceptions import StaleElementReferenceException

        def take() -> bytes | None:
            try:
                return bytes(self.element(css).screenshot_as_png)
            except StaleElementReferenceException:
                return None

        png: bytes = wait_for(take, f"a picture of {css}")
        return png

    def texts(self, css: str) -> list[str]:
        """The text of every element ``css`` finds."""
        return list(
            self.script(
                "return [...document.querySelectorAll(arguments[0])].map(e => e.textContent)", css
            )
        )

    def element(self, css: str, timeout: float = WAIT) -> Any:
        from selenium.webdriver.common.by import By

        return wait_for(
            lambda: next(iter(self.driver.find_elements(By.CSS_SELECTOR, css)), None),
            css,
            timeout,
        )
