//! A place argument (`dest`) as Python gives it: a path or URL as text, or
//! an obstore store (`S3Store`, `GCSStore`, `AzureStore`, `LocalStore`) with
//! the URL `marketcurves._args.place` names it by, as `(store, shown)`. The
//! store is rebuilt here from its configuration (pyo3-object_store); its own
//! prefix stays its own.

use std::collections::BTreeMap;

use pyo3::prelude::*;
use pyo3_object_store::AnyObjectStore;

use places::storage::Place;
use places::ClientError;

pub(crate) enum PlaceArg {
    Text(String),
    Store(AnyObjectStore, String),
}

impl<'py> FromPyObject<'_, 'py> for PlaceArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(text) = obj.extract::<String>() {
            return Ok(PlaceArg::Text(text));
        }
        let (store, shown): (AnyObjectStore, String) = obj.extract()?;
        Ok(PlaceArg::Store(store, shown))
    }
}

impl PlaceArg {
    /// The place to read from, or to record into.
    pub(crate) fn into_place(
        self,
        argument: &str,
        options: &[(String, String)],
    ) -> Result<Place, ClientError> {
        match self {
            PlaceArg::Text(text) => Place::parse(argument, &text, options),
            PlaceArg::Store(store, shown) => {
                Place::of_store(argument, store.into_dyn(), shown, options)
            }
        }
    }

    /// The place to download into: a folder must be one that can be written.
    pub(crate) fn into_place_to_write(
        self,
        argument: &str,
        options: &[(String, String)],
    ) -> Result<Place, ClientError> {
        match self {
            PlaceArg::Text(text) => Place::to_write(argument, &text, options),
            store => store.into_place(argument, options),
        }
    }
}

/// The keys of `options` whose value is a secret for a store of `scheme`
/// (`s3`, `gs`, `az`, …), by any alias object_store takes
/// (`places::storage::secret_options`): what a cluster's task graph must
/// not carry.
#[pyfunction]
pub(crate) fn secret_storage_options(
    scheme: &str,
    options: BTreeMap<String, String>,
) -> Vec<String> {
    let options: Vec<(String, String)> = options.into_iter().collect();
    places::storage::secret_options(scheme, &options)
        .into_iter()
        .map(str::to_owned)
        .collect()
}
