//! The recorder's subscriptions checked against the catalogue before the
//! feed connects: a curve the service does not list, or a tenor of a shape
//! the curve does not offer, would otherwise record nothing, silently.

use crate::rest::client::{contracts_of, tenor_offered};
use crate::rest::{CatalogueQuery, RestClient};
use crate::ClientError;
use domain::live::Subscription;
use domain::tenor::Tenor;

pub async fn check_against_catalogue(
    rest: &RestClient,
    subscriptions: &[Subscription],
) -> Result<(), ClientError> {
    let curves = rest.catalogue(&CatalogueQuery::default(), None).await?;
    for sub in subscriptions {
        let Some(curve) = curves
            .iter()
            .find(|c| c.id.as_deref() == Some(sub.curve_id.as_str()))
        else {
            return Err(ClientError::InvalidRequest(format!(
                "curve_id {:?} is not in the catalogue",
                sub.curve_id
            )));
        };
        if sub.is_all_tenors() {
            continue;
        }
        let contracts = contracts_of(curve);
        tenor_offered(&sub.curve_id, &contracts, &Tenor::parse_lenient(&sub.tenor))?;
    }
    Ok(())
}
