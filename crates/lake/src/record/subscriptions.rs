//! The recorder's subscriptions checked against the catalogue before the
//! feed connects: a curve the service does not list, or a contract it does
//! not list for the curve, would otherwise record nothing, silently (the
//! live feed's rule for strict subscriptions, `live::listed`).

use domain::live::Subscription;
use history::rest::CatalogueQuery;
use history::RestClient;
use live::check_listed;
use places::ClientError;

pub(super) async fn check_against_catalogue(
    rest: &RestClient,
    subscriptions: &[Subscription],
) -> Result<(), ClientError> {
    let curves = rest.catalogue(&CatalogueQuery::default(), None).await?;
    for subscription in subscriptions {
        check_listed(
            &curves,
            subscription,
            live::Remedy::Rule("a recorder takes listed contracts only"),
        )?;
    }
    Ok(())
}
