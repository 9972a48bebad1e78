//! Price units: cents or dollars per gallon, dollars per barrel, dollars per
//! metric tonne, and the factors between them.
//!
//! Volume to volume is exact: 42 US gallons make a barrel (the API barrel)
//! and 100 cents a dollar. Mass to volume depends on the product's density,
//! so it takes barrels per metric tonne, either given by the call or the
//! industry's standard figure for a product:
//!
//! | product  | bbl/t | source |
//! |----------|-------|--------|
//! | Gasoline | 8.33  | ICE Futures Europe, Eurobob Oxy gasoline crack contracts |
//! | Naphtha  | 8.90  | ICE Futures Europe, Naphtha CIF NWE crack contracts |
//! | Jet      | 7.88  | ICE Futures Europe, Jet CIF NWE crack contracts |
//! | ULSD     | 7.45  | ICE Futures Europe, Low Sulphur Gasoil futures |
//! | Fuel Oil | 6.35  | ICE Futures Europe, 3.5% Fuel Oil Rotterdam crack contracts |
//! | Crude    | 7.33  | Energy Institute Statistical Review of World Energy, approximate conversion factors (average crude) |
//!
//! The table's rows carry a curve id but not its product, so a product is
//! named by the call (or a catalogue's curves, in Python); converting mass to
//! volume without one is refused rather than guessed.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Float64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};

use super::input::{numbers, strings};
use super::named::in_units;
use super::CurveError;
use domain::arrow::Table;

pub(crate) const GALLONS_PER_BARREL: f64 = 42.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    CentsPerGallon,
    DollarsPerGallon,
    DollarsPerBarrel,
    DollarsPerTonne,
}

impl Unit {
    pub const ALL: [Unit; 4] = [
        Unit::CentsPerGallon,
        Unit::DollarsPerGallon,
        Unit::DollarsPerBarrel,
        Unit::DollarsPerTonne,
    ];

    /// Reads a unit as the catalogue writes it (`c/gal`, `$/bbl`, `$/mt`)
    /// or in the usual variants (`USc/gal`, `USD/bbl`, `USD/MT`, `$/t`), any case.
    pub fn parse(text: &str) -> Result<Unit, CurveError> {
        let t = text.trim().to_ascii_lowercase().replace(' ', "");
        let (money, per) = t.split_once('/').unwrap_or(("", ""));
        let cents = matches!(money, "c" | "usc" | "cents" | "cent" | "¢" | "usd-cents");
        let dollars = matches!(money, "$" | "usd" | "us$" | "dollars");
        let unit = match per {
            "gal" | "gallon" | "usg" if cents => Some(Unit::CentsPerGallon),
            "gal" | "gallon" | "usg" if dollars => Some(Unit::DollarsPerGallon),
            "bbl" | "barrel" | "b" if dollars => Some(Unit::DollarsPerBarrel),
            "mt" | "t" | "tonne" | "metricton" | "ton" if dollars => Some(Unit::DollarsPerTonne),
            _ => None,
        };
        unit.ok_or_else(|| {
            CurveError::new(format!(
                "unknown units {text:?}: the units known are c/gal, $/gal, $/bbl and $/mt"
            ))
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Unit::CentsPerGallon => "c/gal",
            Unit::DollarsPerGallon => "$/gal",
            Unit::DollarsPerBarrel => "$/bbl",
            Unit::DollarsPerTonne => "$/mt",
        }
    }

    fn is_mass(self) -> bool {
        self == Unit::DollarsPerTonne
    }

    /// A price in this unit in dollars per barrel, given barrels per tonne.
    fn barrel_price(self, price: f64, bpt: f64) -> f64 {
        match self {
            Unit::CentsPerGallon => price / 100.0 * GALLONS_PER_BARREL,
            Unit::DollarsPerGallon => price * GALLONS_PER_BARREL,
            Unit::DollarsPerBarrel => price,
            Unit::DollarsPerTonne => price / bpt,
        }
    }

    fn price_of_barrel(self, price: f64, bpt: f64) -> f64 {
        match self {
            Unit::CentsPerGallon => price / GALLONS_PER_BARREL * 100.0,
            Unit::DollarsPerGallon => price / GALLONS_PER_BARREL,
            Unit::DollarsPerBarrel => price,
            Unit::DollarsPerTonne => price * bpt,
        }
    }

    /// Converts one price; `bpt` (barrels per tonne) is read only between
    /// mass and volume.
    pub fn convert(self, to: Unit, price: f64, bpt: f64) -> f64 {
        if self == to {
            return price;
        }
        to.price_of_barrel(self.barrel_price(price, bpt), bpt)
    }
}

/// The products with a standard barrels-per-tonne factor (see the module's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Product {
    Gasoline,
    Naphtha,
    Jet,
    Ulsd,
    FuelOil,
    Crude,
}

impl Product {
    pub const ALL: [Product; 6] = [
        Product::Gasoline,
        Product::Naphtha,
        Product::Jet,
        Product::Ulsd,
        Product::FuelOil,
        Product::Crude,
    ];

    /// A product by its catalogue name (the vertical), any case.
    pub fn parse(name: &str) -> Result<Product, CurveError> {
        let key = name.trim().to_ascii_lowercase().replace(['_', '-'], " ");
        Product::ALL
            .into_iter()
            .find(|p| p.name().to_ascii_lowercase() == key)
            .ok_or_else(|| {
                CurveError::new(format!(
                    "unknown product {name:?}: the products with a standard factor are \
                     Gasoline, Naphtha, Jet, ULSD, Fuel Oil and Crude"
                ))
            })
    }

    pub fn name(self) -> &'static str {
        match self {
            Product::Gasoline => "Gasoline",
            Product::Naphtha => "Naphtha",
            Product::Jet => "Jet",
            Product::Ulsd => "ULSD",
            Product::FuelOil => "Fuel Oil",
            Product::Crude => "Crude",
        }
    }

    pub fn barrels_per_tonne(self) -> f64 {
        match self {
            Product::Gasoline => 8.33,
            Product::Naphtha => 8.9,
            Product::Jet => 7.88,
            Product::Ulsd => 7.45,
            Product::FuelOil => 6.35,
            Product::Crude => 7.33,
        }
    }
}

/// Barrels per tonne, as a number or a product's standard figure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Factor {
    BarrelsPerTonne(f64),
    Product(Product),
}

impl Factor {
    pub fn barrels_per_tonne(self) -> f64 {
        match self {
            Factor::BarrelsPerTonne(f) => f,
            Factor::Product(p) => p.barrels_per_tonne(),
        }
    }
}

/// The factors of a call: one for every curve, and any per curve id.
#[derive(Clone, Debug, Default)]
pub struct Factors {
    pub all: Option<Factor>,
    pub per_curve: HashMap<String, Factor>,
}

impl Factors {
    fn of(&self, curve_id: &str) -> Option<Factor> {
        self.per_curve.get(curve_id).copied().or(self.all)
    }

    fn check(&self) -> Result<(), CurveError> {
        let all = self.all.iter().map(|f| ("factor", f));
        let each = self.per_curve.iter().map(|(k, f)| (k.as_str(), f));
        for (name, factor) in all.chain(each) {
            let f = factor.barrels_per_tonne();
            if !(f.is_finite() && f > 0.0) {
                return Err(CurveError::new(format!(
                    "the factor of {name} must be a positive number of barrels per tonne, not {f}"
                )));
            }
        }
        Ok(())
    }
}

/// The table with `price` in `to` and `units` saying so. Every row must be in
/// one unit; between mass and volume each curve needs a factor.
pub fn convert(table: &Table, to: Unit, factors: &Factors) -> Result<Table, CurveError> {
    Ok(in_units(convert_unnamed(table, to, factors)?, to.as_str()))
}

fn convert_unnamed(table: &Table, to: Unit, factors: &Factors) -> Result<Table, CurveError> {
    factors.check()?;
    let batch = arrow_select::concat::concat_batches(&table.schema, &table.batches)?;
    let (_, prices) = converted(&batch, to, factors)?;
    let units: StringArray = std::iter::repeat_n(Some(to.as_str()), batch.num_rows()).collect();
    let mut fields: Vec<Field> = Vec::new();
    let mut columns: Vec<ArrayRef> = Vec::new();
    for (field, column) in batch.schema().fields().iter().zip(batch.columns()) {
        let (field, column): (Field, ArrayRef) = match field.name().as_str() {
            "price" => (
                Field::new("price", DataType::Float64, field.is_nullable()),
                Arc::new(prices.clone()),
            ),
            "units" => (
                Field::new("units", DataType::Utf8, field.is_nullable()),
                Arc::new(units.clone()),
            ),
            _ => (field.as_ref().clone(), column.clone()),
        };
        fields.push(field);
        columns.push(column);
    }
    let schema = Arc::new(Schema::new_with_metadata(
        fields,
        batch.schema().metadata().clone(),
    ));
    let batch = RecordBatch::try_new(schema.clone(), columns)?;
    Ok(Table {
        schema,
        batches: vec![batch],
    })
}

/// The unit a batch's prices are in and the prices in `to`.
pub(super) fn converted(
    batch: &RecordBatch,
    to: Unit,
    factors: &Factors,
) -> Result<(Option<Unit>, Float64Array), CurveError> {
    let prices = numbers(batch, "price")?;
    if batch.num_rows() == 0 {
        return Ok((None, prices));
    }
    let units = strings(batch, "units")?;
    let curve_ids = strings(batch, "curve_id")?;
    let from = one_unit(&units, &curve_ids)?;
    if from == to {
        return Ok((Some(from), prices));
    }
    let mut factor_of: HashMap<&str, f64> = HashMap::new();
    let mut out = Vec::with_capacity(prices.len());
    for (row, price) in prices.iter().enumerate() {
        let bpt = if from.is_mass() != to.is_mass() {
            let curve = curve_ids.value(row);
            match factor_of.get(curve) {
                Some(&f) => f,
                None => {
                    let f = factors
                        .of(curve)
                        .ok_or_else(|| needs_factor(curve, from, to))?
                        .barrels_per_tonne();
                    factor_of.insert(curve, f);
                    f
                }
            }
        } else {
            1.0
        };
        out.push(price.map(|p| from.convert(to, p, bpt)));
    }
    Ok((Some(from), Float64Array::from(out)))
}

fn needs_factor(curve: &str, from: Unit, to: Unit) -> CurveError {
    CurveError::NeedsFactor {
        curve_id: curve.to_owned(),
        from,
        to,
    }
}

/// The one unit of every row, refusing a table of several or a row without.
fn one_unit(units: &StringArray, curve_ids: &StringArray) -> Result<Unit, CurveError> {
    let mut seen: Option<(Unit, &str, &str)> = None;
    let mut parsed: HashMap<&str, Unit> = HashMap::new();
    for row in 0..units.len() {
        let curve = curve_ids.value(row);
        if units.is_null(row) {
            return Err(CurveError::new(format!(
                "curve {curve}: a row has no units, so its price cannot be converted"
            )));
        }
        let text = units.value(row);
        let unit = match parsed.get(text) {
            Some(&u) => u,
            None => {
                let u = Unit::parse(text)
                    .map_err(|e| CurveError::new(format!("curve {curve}: {e}")))?;
                parsed.insert(text, u);
                u
            }
        };
        match seen {
            None => seen = Some((unit, text, curve)),
            Some((first, first_text, first_curve)) if first != unit => {
                return Err(CurveError::new(format!(
                    "mixed units in one call: {first_text:?} (curve {first_curve}) and \
                     {text:?} (curve {curve}); convert each curve on its own"
                )))
            }
            Some(_) => {}
        }
    }
    Ok(seen.expect("rows").0)
}

#[cfg(test)]
#[path = "units_tests.rs"]
mod tests;
