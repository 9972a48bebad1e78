"""marketcurves: forward-curve prices of oil products as Arrow tables.

>>> import marketcurves as mc
>>> sorted(mc.Tenor.parse(n) for n in ["Feb 25", "Q1 25", "C 00", "Jan 25"])
[Tenor('C 00', kind='continuous'), Tenor('Jan 25', kind='month', start=2025-01-01, end=2025-01-31), Tenor('Q1 25', kind='quarter', start=2025-01-01, end=2025-03-31), Tenor('Feb 25', kind='month', start=2025-02-01, end=2025-02-28)]
"""

from marketcurves import curves, exceptions, plot, widgets
from marketcurves._core import Tenor, Tick, __version__
from marketcurves._polars import to_polars
from marketcurves._worker_settings import WorkerSettings
from marketcurves.backfill import BackfillSummary
from marketcurves.bulk import BulkJob, BulkResult, read_bulk, read_bulk_async
from marketcurves.catalogue import Catalogue, Curve
from marketcurves.client import Client
from marketcurves.exceptions import (
    AccessDenied,
    AuthError,
    BudgetExceeded,
    BulkJobFailed,
    CacheMiss,
    ClientClosed,
    DecodeError,
    DestinationError,
    InvalidRequest,
    InvalidType,
    LiveFeedError,
    MarketCurvesError,
    MissingWorkerCredentials,
    NotFound,
    RateLimited,
    ServiceError,
)
from marketcurves.frames import forward_curve, to_pandas
from marketcurves.lake import LakeReport, check_lake, check_lake_async
from marketcurves.live import LiveFeed
from marketcurves.record import RecordSummary, read_ticks, read_ticks_async

__all__ = [
    "AccessDenied",
    "AuthError",
    "BackfillSummary",
    "BudgetExceeded",
    "BulkJob",
    "BulkJobFailed",
    "BulkResult",
    "CacheMiss",
    "Catalogue",
    "Client",
    "ClientClosed",
    "Curve",
    "DecodeError",
    "DestinationError",
    "InvalidRequest",
    "InvalidType",
    "LakeReport",
    "LiveFeed",
    "LiveFeedError",
    "MarketCurvesError",
    "MissingWorkerCredentials",
    "NotFound",
    "RateLimited",
    "RecordSummary",
    "ServiceError",
    "Tenor",
    "Tick",
    "WorkerSettings",
    "__version__",
    "check_lake",
    "check_lake_async",
    "curves",
    "exceptions",
    "forward_curve",
    "plot",
    "read_bulk",
    "read_bulk_async",
    "read_ticks",
    "read_ticks_async",
    "to_pandas",
    "to_polars",
    "widgets",
]
