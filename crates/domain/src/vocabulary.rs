//! The values the interface fixes: verticals, and the quotations and regions of
//! each. The client checks arguments against them; the emulator builds its
//! catalogue from them.

/// One vertical with its interface name, its bulk-download spelling and the
/// quotation and region values the interface lists for it.
#[derive(Debug)]
pub struct Vertical {
    pub name: &'static str,
    pub bulk_name: &'static str,
    pub quotations: &'static [&'static str],
    pub regions: &'static [&'static str],
}

pub const VERTICALS: [Vertical; 6] = [
    Vertical {
        name: "Gasoline",
        bulk_name: "GASOLINE",
        quotations: &[
            "Ara Ref Margin by load",
            "Blender Margin by load",
            "Delivered price by load",
            "Freight Costs",
            "Freight Rate",
            "Price",
            "Sales",
        ],
        regions: &[
            "AG", "ARA", "HOU", "HOU Bld", "HOU Ref", "SING", "WAF", "WCI",
        ],
    },
    Vertical {
        name: "ULSD",
        bulk_name: "ULSD",
        quotations: &[
            "Delivered price by load",
            "Fob",
            "Freight Costs",
            "Freight Rate",
            "Margin by load",
            "Sales",
        ],
        regions: &[
            "AG",
            "FAR EAST",
            "Med",
            "RED SEA",
            "SOUTH EAST ASIA",
            "USGC",
        ],
    },
    Vertical {
        name: "Jet",
        bulk_name: "JET",
        quotations: &[
            "Delivered price by load",
            "Fob",
            "Freight Costs",
            "Freight Rate",
            "Margin by load",
            "Sales",
        ],
        regions: &[
            "AG",
            "FAR EAST",
            "RED SEA",
            "SOUTH EAST ASIA",
            "USGC",
            "WCI",
        ],
    },
    Vertical {
        name: "Naphtha",
        bulk_name: "NAPHTHA",
        quotations: &[
            "Delivered price by load",
            "Fob",
            "Freight Costs",
            "Freight Rate",
            "Margin by load",
            "Sales",
        ],
        regions: &["AG", "Med", "NWE", "USGC", "WAF"],
    },
    Vertical {
        name: "Crude",
        bulk_name: "CRUDE",
        quotations: &[
            "Delivered Outright Price",
            "Delivered price by load",
            "Fob",
            "Freight Costs",
            "Freight Rate",
            "GPW Complex Setup",
            "GPW Medium Setup",
            "GPW Simple Setup",
            "Ref Margin Complex by load",
            "Ref Margin Medium by load",
            "Ref Margin simple by load",
        ],
        regions: &["AG", "LATAM", "NORTH SEA", "WAF", "WCMEX"],
    },
    Vertical {
        name: "Fuel Oil",
        bulk_name: "FUEL_OIL",
        quotations: &["Blend", "Margin", "Price", "Sales"],
        regions: &["ARA", "FUJ", "MED", "SING", "USGC"],
    },
];

/// The vertical named `name` in either spelling (`Fuel Oil`, `FUEL_OIL`), any case.
pub fn find_vertical(name: &str) -> Option<&'static Vertical> {
    let wanted = name.trim().replace('_', " ");
    VERTICALS
        .iter()
        .find(|v| v.name.eq_ignore_ascii_case(&wanted))
}

/// The interface's spelling of `value` among `allowed`, compared without case.
pub fn canonical(allowed: &'static [&'static str], value: &str) -> Option<&'static str> {
    allowed
        .iter()
        .copied()
        .find(|a| a.eq_ignore_ascii_case(value.trim()))
}

#[cfg(test)]
#[path = "vocabulary_tests.rs"]
mod tests;
