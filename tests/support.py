"""What every suite shares: when its emulators start and how they are made.

Test modules, conftests and suite helpers import it by name (``from support
import START, start_emulator``): ``tests/`` is on ``sys.path`` because pytest
puts the folder of ``tests/conftest.py`` there before loading it (the default
"prepend" import mode, no ``__init__.py`` in ``tests/``), in worker processes
of ``pytest -n`` too. Fixtures of every scope start their emulators with
:func:`start_emulator`; the root conftest builds ``em``, ``fresh_em`` and
``make_emulator`` on it.
"""

from __future__ import annotations

from typing import Any

from marketcurves.testing import Emulator

#: Where an emulator's clock starts: Friday 2025-06-13, 17:00 UTC, after the
#: London close, so that the day's settlement is out; on a stopped clock every
#: answer is fixed.
START = "2025-06-13T17:00:00Z"

#: Where the emulators of the live feed and recorder suites start: Wednesday
#: 2025-06-11, 09:00 UTC, markets open, a business day whose midnight is
#: followed by another.
LIVE_START = "2025-06-11T09:00:00Z"

#: The clock of emulators whose bulk jobs must finish: a job runs 2 s and
#: half a second a month of the emulator's time (40 to 200 ms of real time
#: here), and its URLs last an hour of it (72 s of real time), which a
#: download on a loaded machine takes well within. At 500 times, an hour was
#: 7 s, and a busy machine saw URLs expire mid-download.
BULK_TIME_SCALE = 50


def start_emulator(
    *, seed: int = 0, time_scale: float = 0, start: str = START, **settings: Any
) -> Emulator:
    """An emulator of the world ``seed``, started now; by default on a stopped
    clock at :data:`START`. ``settings`` go to :class:`Emulator` as they are
    (``port``, ``early_close``). The caller stops it: use it in a ``with``
    block, or through the ``make_emulator`` fixture."""
    return Emulator(seed=seed, time_scale=time_scale, start=start, **settings)
