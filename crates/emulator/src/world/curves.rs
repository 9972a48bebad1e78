//! The synthetic catalogue: one curve quotation per (vertical, quotation,
//! region) of the interface's tables, 233 in all, each with a deterministic
//! identity, units, filters, properties and a price profile.

use std::collections::BTreeMap;

use crate::hash::{combine, of_str, pick, unit, uuid};
use domain::vocabulary::{Vertical, VERTICALS};

/// What a curve's prices look like and which tenors it offers.
#[derive(Clone, Debug)]
pub struct Profile {
    /// Minutes between intraday values: 1, 2, 5, 10 or 15.
    pub granularity_minutes: u32,
    pub level: f64,
    /// Size of the day-to-day swings, in price units.
    pub amplitude: f64,
    /// Price change per month further out (contango > 0, backwardation < 0).
    pub slope: f64,
    pub decimals: i32,
    pub months_ahead: u32,
    pub quarters_ahead: u32,
    pub windows: bool,
    pub continuous: bool,
    /// Days from loading to delivery (0 for curves without a route).
    pub transit_days: i64,
}

#[derive(Clone, Debug)]
pub struct Curve {
    pub index: usize,
    pub key: u64,
    pub id: String,
    pub name: String,
    pub vertical: &'static Vertical,
    pub quotation: &'static str,
    pub region: &'static str,
    pub units: &'static str,
    pub filters: BTreeMap<String, String>,
    pub properties: BTreeMap<String, String>,
    pub profile: Profile,
    /// Indices of component curves (same vertical and region) shown as dependencies.
    pub components: Vec<usize>,
    /// 0 for the interface's own combination; n for the n-th curve added to
    /// it later (`Controls::add_curves`).
    pub variant: u32,
}

pub(crate) fn generate(seed: u64) -> Vec<Curve> {
    let mut curves = Vec::new();
    for vertical in &VERTICALS {
        for &quotation in vertical.quotations {
            for &region in vertical.regions {
                let index = curves.len();
                curves.push(curve(seed, index, vertical, quotation, region, 0));
            }
        }
    }
    link_components(&mut curves, 0);
    curves
}

/// The curve of one combination; `variant` 0 is the interface's own, any
/// other another curve of it (a grade, a port, a spec of its own).
pub(super) fn curve(
    seed: u64,
    index: usize,
    vertical: &'static Vertical,
    quotation: &'static str,
    region: &'static str,
    variant: u32,
) -> Curve {
    let mut key = combine(&[
        seed,
        of_str(vertical.name),
        of_str(quotation),
        of_str(region),
    ]);
    if variant > 0 {
        key = combine(&[key, of_str("variant"), u64::from(variant)]);
    }
    let h = |salt: &str| combine(&[key, of_str(salt)]);
    let family = Family::of(quotation);
    let units = family.units(vertical.name, region);
    let (level, amplitude) = family.level(vertical.name, units);
    let level = level * (0.9 + 0.2 * unit(h("level")));
    let route = matches!(family, Family::Delivered | Family::Freight);
    let load_port = pick(h("load"), ports(region));
    let destination = pick(h("dest"), DESTINATIONS);
    let discharge_port = pick(h("discharge"), ports(destination));

    let mut filters: BTreeMap<String, String> = BTreeMap::new();
    filters.insert("vertical".into(), vertical.name.into());
    filters.insert("quotation".into(), quotation.into());
    filters.insert("region".into(), region.into());
    filters.insert(
        "productType".into(),
        pick(h("product"), product_types(vertical.name)).into(),
    );
    if quotation.ends_with("by load") {
        filters.insert("loadPort".into(), load_port.into());
    }
    if route {
        filters.insert("dischargePort".into(), discharge_port.into());
        filters.insert(
            "vessel".into(),
            pick(h("vessel"), vessels(vertical.name)).into(),
        );
    }
    if unit(h("grade")) < 0.4 {
        filters.insert(
            "grade".into(),
            pick(h("grade-value"), grades(vertical.name)).into(),
        );
    }

    let mut properties: BTreeMap<String, String> = BTreeMap::new();
    properties.insert("loadPortName".into(), load_port.into());
    properties.insert("loadPortRegion".into(), region.into());
    properties.insert(
        "specName".into(),
        format!("{} {}", vertical.name, pick(h("spec"), SPECS)),
    );
    properties.insert("incoterms".into(), if route { "CFR" } else { "FOB" }.into());
    if route {
        properties.insert("routing".into(), format!("{region}-{destination}"));
        properties.insert("routeCode".into(), format!("TC{}", 1 + h("route") % 20));
        properties.insert("vessel".into(), filters["vessel"].clone());
        properties.insert("dischargePortName".into(), discharge_port.into());
        properties.insert("dischargePortRegion".into(), destination.into());
    }

    let suffix = filters
        .get("grade")
        .map(|g| format!(" {g}"))
        .unwrap_or_default();
    let mut name = if route {
        format!(
            "{} {} {region}-{destination}{suffix}",
            vertical.name, quotation
        )
    } else {
        format!("{} {} {region}{suffix}", vertical.name, quotation)
    };
    if variant > 0 {
        // Two variants may draw the same grade and route: the number keeps
        // every name unique.
        name.push_str(&format!(" #{variant}"));
    }
    let profile = Profile {
        granularity_minutes: pick(h("granularity"), &[1, 2, 5, 10, 15]),
        level,
        amplitude,
        slope: amplitude * 0.04 * (unit(h("slope")) - 0.5),
        decimals: if units == "WS" { 2 } else { 3 },
        months_ahead: pick(h("months"), &[12, 18, 24, 36]),
        quarters_ahead: if unit(h("quarters")) < 0.7 {
            pick(h("q"), &[4, 6, 8])
        } else {
            0
        },
        windows: matches!(family, Family::Outright | Family::Delivered) && unit(h("windows")) < 0.6,
        continuous: unit(h("continuous")) < 0.4,
        transit_days: if route {
            5 + (h("transit") % 21) as i64
        } else {
            0
        },
    };
    Curve {
        index,
        key,
        id: uuid(combine(&[key, of_str("id")])),
        name,
        vertical,
        quotation,
        region,
        units,
        filters,
        properties,
        profile,
        components: Vec::new(),
        variant,
    }
}

/// Delivered prices depend on the Fob/Price and freight curves of their
/// vertical and region; margins and blends on the outright price: curves of
/// the interface's own combinations, so a curve added later is nobody's
/// component. Links the curves from `first` on.
pub(super) fn link_components(curves: &mut [Curve], first: usize) {
    // Searched among the interface's own curves only: a few hundred, however
    // many were added.
    let own: Vec<usize> = curves
        .iter()
        .filter(|c| c.variant == 0)
        .map(|c| c.index)
        .collect();
    for i in first..curves.len() {
        let (vertical, region) = (curves[i].vertical.name, curves[i].region);
        let wanted: &[Family] = match Family::of(curves[i].quotation) {
            Family::Delivered => &[Family::Outright, Family::Freight],
            Family::Margin | Family::Blend => &[Family::Outright],
            Family::Freight | Family::Outright => &[],
        };
        let components = own
            .iter()
            .map(|&j| &curves[j])
            .filter(|c| c.index != i && c.vertical.name == vertical && c.region == region)
            .filter(|c| wanted.contains(&Family::of(c.quotation)))
            .filter(|c| c.quotation != "Freight Rate")
            .map(|c| c.index)
            .take(2)
            .collect();
        curves[i].components = components;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Outright,
    Delivered,
    Freight,
    Margin,
    Blend,
}

impl Family {
    fn of(quotation: &str) -> Family {
        let q = quotation.to_ascii_lowercase();
        if q.starts_with("freight") {
            Family::Freight
        } else if q.starts_with("delivered") {
            Family::Delivered
        } else if q.contains("margin") {
            Family::Margin
        } else if q == "blend" {
            Family::Blend
        } else {
            Family::Outright
        }
    }

    fn units(self, vertical: &str, region: &str) -> &'static str {
        let us = region.starts_with("HOU") || region == "USGC";
        match (self, vertical) {
            (Family::Freight, _) => "$/mt",
            (Family::Margin, _) | (_, "Crude") => "$/bbl",
            (_, "Gasoline" | "ULSD" | "Jet") if us => "c/gal",
            _ => "$/mt",
        }
    }

    /// Typical level and swing in the given units.
    fn level(self, vertical: &str, units: &str) -> (f64, f64) {
        match (self, units) {
            (Family::Freight, _) => (28.0, 6.0),
            (Family::Margin, _) => (9.0, 4.0),
            (_, "c/gal") => (235.0, 18.0),
            (_, "$/bbl") if vertical == "Crude" => (78.0, 7.0),
            _ => match vertical {
                "Gasoline" => (820.0, 60.0),
                "ULSD" => (705.0, 55.0),
                "Jet" => (725.0, 55.0),
                "Naphtha" => (640.0, 50.0),
                _ => (455.0, 40.0),
            },
        }
    }
}

const DESTINATIONS: &[&str] = &["SING", "ARA", "USGC", "WAF", "FAR EAST", "Med"];
const SPECS: &[&str] = &["Standard", "Premium", "Export", "Domestic"];

fn ports(region: &str) -> &'static [&'static str] {
    match region {
        "AG" => &["Ras Tanura", "Ruwais", "Jubail"],
        "ARA" => &["Rotterdam", "Antwerp", "Amsterdam"],
        "HOU" | "HOU Bld" | "HOU Ref" | "USGC" => &["Houston", "Corpus Christi"],
        "SING" | "SOUTH EAST ASIA" => &["Singapore", "Port Dickson"],
        "WAF" => &["Lagos", "Lome"],
        "WCI" => &["Sikka", "Jamnagar"],
        "FAR EAST" => &["Yokohama", "Ulsan"],
        "Med" | "MED" => &["Lavera", "Augusta"],
        "RED SEA" => &["Yanbu", "Jeddah"],
        "NWE" => &["Rotterdam", "Le Havre"],
        "LATAM" => &["Santos", "Jose"],
        "NORTH SEA" => &["Sullom Voe", "Hound Point"],
        "WCMEX" => &["Salina Cruz"],
        "FUJ" => &["Fujairah"],
        _ => &["Main Port"],
    }
}

fn product_types(vertical: &str) -> &'static [&'static str] {
    match vertical {
        "Gasoline" => &["Eurobob", "RBOB", "Unleaded 92", "Unleaded 95"],
        "ULSD" => &["10ppm", "Gasoil 0.1%"],
        "Jet" => &["Jet A-1", "Jet 54"],
        "Naphtha" => &["Open spec", "Full range"],
        "Crude" => &["Light sweet", "Medium sour", "Heavy sour"],
        _ => &["HSFO 380", "VLSFO 0.5%", "LSFO 1%"],
    }
}

fn grades(vertical: &str) -> &'static [&'static str] {
    match vertical {
        "Gasoline" => &["92 RON", "95 RON", "97 RON"],
        "ULSD" | "Jet" => &["10ppm", "500ppm"],
        "Naphtha" => &["Paraffinic", "Heavy"],
        "Crude" => &["Brent", "Murban", "Bonny Light", "Maya"],
        _ => &["380cst", "180cst", "0.5%S"],
    }
}

fn vessels(vertical: &str) -> &'static [&'static str] {
    match vertical {
        "Crude" => &["VLCC", "Suezmax", "Aframax"],
        _ => &["MR", "LR1", "LR2"],
    }
}

#[cfg(test)]
#[path = "curves_tests.rs"]
mod tests;
