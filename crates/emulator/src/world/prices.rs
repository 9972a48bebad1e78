//! Prices as a pure function of (seed, curve, tenor, instant), and the records
//! that carry them. The same instant gives the same price whichever endpoint
//! asks: a settlement at 15:30:00 UTC equals the intraday value published then.

use std::borrow::Cow;
use std::f64::consts::TAU;

use chrono::{DateTime, Datelike, Duration, NaiveDate};
use serde::Serialize;

use super::curves::Curve;
use super::iso_text::{push_date, push_timestamp};
use crate::calendar::{start_of, MICROS_PER_DAY, MICROS_PER_MINUTE};
use crate::hash::{combine, of_str, unit};
use domain::tenor::{Tenor, TenorKind};
use domain::timestamp::Micros;

/// A published value: when, and how many fractional digits its time is printed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    pub at: Micros,
    pub digits: u8,
}

impl Stamp {
    /// An exact instant (a snapshot time), printed with 0 to 6 zero digits.
    pub fn exact(curve: &Curve, at: Micros) -> Stamp {
        let digits = (combine(&[curve.key, at as u64, 7]) % 7) as u8;
        Stamp { at, digits }
    }

    /// `2025-06-13T15:30:00.12`: UTC, no suffix, `digits` fractional digits.
    pub fn format(self) -> String {
        let time = DateTime::from_timestamp_micros(self.at).expect("in range");
        let mut text = String::with_capacity(26);
        push_timestamp(&mut text, time, self.digits);
        text
    }
}

/// The intraday value `slot` of `day`: slots are `granularity` minutes apart
/// from midnight UTC; each is published a little after its slot starts, its
/// time carrying only as many digits as it is printed with.
pub(crate) fn tick(curve: &Curve, day: NaiveDate, slot: u32) -> Stamp {
    let slot_start = start_of(day) + i64::from(slot) * granularity(curve);
    let h = combine(&[curve.key, slot_start as u64, 11]);
    let digits = (h % 7) as u8;
    let spread = (granularity(curve) / 2).min(40_000_000);
    let jitter = (combine(&[h, 1]) % spread as u64) as Micros;
    let unit_of_digits = 10i64.pow(6 - u32::from(digits));
    Stamp {
        at: slot_start + jitter - jitter % unit_of_digits,
        digits,
    }
}

pub(crate) fn granularity(curve: &Curve) -> Micros {
    i64::from(curve.profile.granularity_minutes) * MICROS_PER_MINUTE
}

pub(crate) fn slots_per_day(curve: &Curve) -> u32 {
    (MICROS_PER_DAY / granularity(curve)) as u32
}

/// The price of `tenor` on `curve` at instant `at`.
pub(crate) fn price(seed: u64, curve: &Curve, tenor: &Tenor, at: Micros) -> f64 {
    let profile = &curve.profile;
    let tenor_key = combine(&[seed, curve.key, of_str(tenor.name())]);
    let days = at as f64 / MICROS_PER_DAY as f64;
    let phase = |salt: u64| TAU * unit(combine(&[curve.key, salt]));
    let slow = (TAU * days / 41.0 + phase(1)).sin();
    let medium = (TAU * days / 9.7 + phase(2)).sin();
    let fast = (TAU * days / 1.3 + phase(3) + unit(tenor_key)).sin();
    // A small per-minute wobble, so consecutive ticks differ.
    let minute = (at / MICROS_PER_MINUTE) as u64;
    let noise = unit(combine(&[tenor_key, minute])) - 0.5;
    // Tenor-specific parts stay small, so a day's forward curve is smooth.
    let wave = 0.65 * slow + 0.3 * medium + 0.015 * fast + 0.01 * noise;
    let value = profile.level + profile.slope * months_out(tenor, at) + profile.amplitude * wave;
    let scale = 10f64.powi(profile.decimals);
    (value * scale).round() / scale
}

/// How far ahead the tenor delivers, in months, from the month of `at`.
fn months_out(tenor: &Tenor, at: Micros) -> f64 {
    let today = DateTime::from_timestamp_micros(at)
        .expect("in range")
        .date_naive();
    match (tenor.kind(), tenor.start()) {
        (TenorKind::Continuous, _) => tenor.name()[2..].parse().unwrap_or(0.0),
        (_, Some(start)) => {
            let months =
                (start.year() - today.year()) * 12 + start.month() as i32 - today.month() as i32;
            f64::from(months.max(0))
        }
        _ => 0.0,
    }
}

/// A record as the service writes it. Names are borrowed from the world:
/// every page writes a hundred of them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PriceRecordOut<'a> {
    pub generated_on: String,
    pub price: f64,
    pub units: &'static str,
    pub tenor: &'a str,
    pub dependencies: Vec<DependencyOut<'a>>,
    pub metadata: Vec<MetadataOut>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DependencyOut<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub value: f64,
    pub units: &'static str,
    pub tenor_name: Cow<'a, str>,
}

#[derive(Serialize)]
pub struct MetadataOut {
    pub name: &'static str,
    pub value: Cow<'static, str>,
}

/// The full record of a value published at `stamp`.
pub(crate) fn record<'a>(
    seed: u64,
    curves: &'a [Curve],
    curve: &'a Curve,
    tenor: &'a Tenor,
    stamp: Stamp,
) -> PriceRecordOut<'a> {
    // A window's components are quoted on the window's month.
    let component_tenor: Cow<'a, Tenor> = match (tenor.kind(), tenor.start()) {
        (TenorKind::Window, Some(start)) => Cow::Owned(
            Tenor::parse(&Tenor::month_name(start.year(), start.month())).expect("valid"),
        ),
        _ => Cow::Borrowed(tenor),
    };
    let dependencies = curve
        .components
        .iter()
        .map(|&i| {
            let component = &curves[i];
            DependencyOut {
                id: &component.id,
                name: &component.name,
                value: price(seed, component, &component_tenor, stamp.at),
                units: component.units,
                tenor_name: match &component_tenor {
                    Cow::Borrowed(tenor) => Cow::Borrowed(tenor.name()),
                    Cow::Owned(tenor) => Cow::Owned(tenor.name().to_owned()),
                },
            }
        })
        .collect();
    PriceRecordOut {
        generated_on: stamp.format(),
        price: price(seed, curve, tenor, stamp.at),
        units: curve.units,
        tenor: tenor.name(),
        dependencies,
        metadata: metadata(curve, tenor, stamp.at),
    }
}

const MONTH_NUMBERS: [&str; 12] = [
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12",
];

const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn metadata(curve: &Curve, tenor: &Tenor, at: Micros) -> Vec<MetadataOut> {
    let load = match tenor.start() {
        Some(start) => start,
        None if tenor.kind() == TenorKind::Continuous => {
            let today = DateTime::from_timestamp_micros(at)
                .expect("in range")
                .date_naive();
            let ahead = months_out(tenor, at) as u32;
            let first = today.with_day(1).expect("day 1");
            first + chrono::Months::new(ahead)
        }
        None => return Vec::new(),
    };
    let delivery = load + Duration::days(curve.profile.transit_days);
    let iso = |d: NaiveDate| {
        let mut text = String::with_capacity(24);
        push_date(&mut text, d);
        text.push_str("T00:00:00.000Z");
        text
    };
    vec![
        MetadataOut {
            name: "loadDate",
            value: Cow::Owned(iso(load)),
        },
        MetadataOut {
            name: "deliveryDate",
            value: Cow::Owned(iso(delivery)),
        },
        MetadataOut {
            name: "monthName",
            value: Cow::Borrowed(MONTH_NAMES[load.month0() as usize]),
        },
        MetadataOut {
            name: "monthNumber",
            value: Cow::Borrowed(MONTH_NUMBERS[load.month0() as usize]),
        },
    ]
}

#[cfg(test)]
#[path = "prices_tests.rs"]
mod tests;
