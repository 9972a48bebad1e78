"""A backfill into S3 (moto on loopback) on a Dask ``LocalCluster`` whose
worker takes its credentials from its environment: every task the scheduler
receives is pickled and searched for the secrets, and a destination that
would carry one (a storage option by any of object_store's aliases, an
obstore store built with credentials or a credential provider, a proxy's
login) is refused before anything is submitted."""

from __future__ import annotations

import base64
import functools
from collections.abc import Iterator
from typing import Any

import pytest
from cluster_helpers import (
    GraphSpy,
    assert_secret_free,
    local_cluster,
    obstore_store,
    s3_store,
    spying,
    two_tenors,
)
from storage_helpers import ACCESS_KEY_ID, SECRET_ACCESS_KEY

import marketcurves as mc
from marketcurves.testing import Emulator

FIRST, LAST = "2025-05-20", "2025-06-05"
#: What no task may carry: made up for the refusals, so that finding one
#: in a pickle can only mean it travelled.
SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYSECRET"
PROXY = "hunter2ProxySecret"
AZURE_KEY = base64.b64encode(b"an account key of 32 bytes, here").decode()


@pytest.fixture(scope="module")
def cluster(em: Emulator, moto_server: str) -> Iterator[Any]:
    with local_cluster(em, moto_server, workers=1) as client:
        yield client


@pytest.fixture
def spy(cluster: Any) -> Iterator[GraphSpy]:
    with spying(cluster) as spy:
        yield spy


def test_workers_write_into_s3_from_their_environment_and_no_task_holds_a_secret(
    em, cluster, spy, bucket, moto_server, s3_env
):
    # The driver holds every secret (its token, and the store's in its
    # environment); the options given name none of them.
    options = {"aws_endpoint": moto_server, "aws_allow_http": "true", "aws_region": "us-east-1"}
    with em.client() as client:
        pairs = two_tenors(client)
        dest = f"s3://{bucket}/lake"
        summary = client.backfill(
            dest, pairs, FIRST, LAST, storage_options=options, cluster=cluster
        )
    assert summary.tasks == len(spy.pickles) > 0
    assert summary.values == mc.read_ticks(dest, storage_options=options).num_rows > 0
    assert_secret_free(spy.pickles, em.token(), SECRET_ACCESS_KEY, ACCESS_KEY_ID)


#: (scheme, a storage option's key): every alias of a credential that
#: object_store 0.14 takes, for each store.
SECRET_OPTIONS = [
    *(
        ("s3", key)
        for key in (
            "aws_access_key_id",
            "access_key_id",
            "aws_secret_access_key",
            "secret_access_key",
            "aws_session_token",
            "aws_token",
            "session_token",
            "token",
            "aws_sse_customer_key_base64",
            "sse_customer_key_base64",
            "SECRET_ACCESS_KEY",
        )
    ),
    *(
        ("az", key)
        for key in (
            "azure_storage_account_key",
            "azure_storage_access_key",
            "azure_storage_master_key",
            "master_key",
            "account_key",
            "access_key",
            "azure_storage_client_secret",
            "azure_client_secret",
            "client_secret",
            "azure_storage_sas_key",
            "azure_storage_sas_token",
            "sas_key",
            "sas_token",
            "azure_storage_token",
            "bearer_token",
            "token",
            "azure_fabric_session_token",
            "fabric_session_token",
            "azure_storage_encryption_key",
            "encryption_key",
        )
    ),
    *(
        ("gs", key)
        for key in (
            "google_service_account_key",
            "service_account_key",
            "google_bearer_token",
            "bearer_token",
        )
    ),
]


@pytest.mark.parametrize(("scheme", "key"), SECRET_OPTIONS, ids=lambda v: str(v))
def test_a_secret_storage_option_by_any_alias_is_refused_before_anything_is_submitted(
    em, cluster, spy, bucket, moto_server, s3_env, scheme, key
):
    options = {key: SECRET}
    if scheme == "s3":
        options |= {"aws_endpoint": moto_server, "aws_allow_http": "true"}
    with em.client() as client, pytest.raises(mc.InvalidRequest) as refused:
        dest = f"{scheme}://{bucket}/lake"
        client.backfill(
            dest, two_tenors(client), FIRST, LAST, storage_options=options, cluster=cluster
        )
    assert key in str(refused.value) and "environment" in str(refused.value)
    assert SECRET not in str(refused.value)
    assert spy.pickles == []


def _store(which: str, bucket: str, endpoint: str) -> tuple[Any, str]:
    """A store built with a secret, and the word the refusal names."""
    provider = functools.partial(dict, access_key_id=ACCESS_KEY_ID, secret_access_key=SECRET)
    stores = {
        "s3-keys": lambda: (
            s3_store(bucket, endpoint, access_key_id=ACCESS_KEY_ID, secret_access_key=SECRET),
            "secret_access_key",
        ),
        "s3-session-token": lambda: (s3_store(bucket, endpoint, token=SECRET), "token"),
        "s3-proxy-login": lambda: (
            s3_store(bucket, endpoint, proxy=f"http://u:{PROXY}@p:3128"),
            "proxy_url",
        ),
        "s3-credential-provider": lambda: (
            s3_store(bucket, endpoint, credential_provider=provider),
            "credential_provider",
        ),
        "azure-master-key": lambda: (
            obstore_store.AzureStore(bucket, account_name="acct", master_key=AZURE_KEY),
            "account_key",
        ),
        "gcs-bearer-token": lambda: (
            obstore_store.GCSStore(bucket, bearer_token=SECRET),
            "bearer_token",
        ),
    }
    return stores[which]()


@pytest.mark.parametrize(
    "which",
    [
        "s3-keys",
        "s3-session-token",
        "s3-proxy-login",
        "s3-credential-provider",
        "azure-master-key",
        "gcs-bearer-token",
    ],
)
def test_a_store_built_with_a_secret_is_refused_before_anything_is_submitted(
    em, cluster, spy, bucket, moto_server, s3_env, which
):
    store, word = _store(which, bucket, moto_server)
    with em.client() as client, pytest.raises(mc.InvalidRequest) as refused:
        client.backfill(store, two_tenors(client), FIRST, LAST, cluster=cluster)
    assert word in str(refused.value) and "environment" in str(refused.value)
    for secret in (SECRET, AZURE_KEY, PROXY):
        assert secret not in str(refused.value)
    assert_secret_free(spy.pickles, SECRET, AZURE_KEY, PROXY)
    assert spy.pickles == []
