//! `marketcurves.Tenor`: the Python face of [`domain::tenor::Tenor`].

use chrono::NaiveDate;
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use super::errors::CoreResult;
use domain::tenor::Tenor;

/// An argument checked by `marketcurves._args.<check>`, the package's one
/// checker of Python argument types, so that a wrong type is an
/// `InvalidRequest` naming the argument as everywhere else (Tenor is the one
/// class users reach without a Python wrapper in between).
fn checked<'py>(value: &Bound<'py, PyAny>, check: &str, name: &str) -> PyResult<Bound<'py, PyAny>> {
    let py = value.py();
    let checker = py.import("marketcurves._args")?.getattr(check)?;
    checker.call1((value, name))
}

fn checked_date(value: &Bound<'_, PyAny>, name: &str) -> PyResult<NaiveDate> {
    let py = value.py();
    let checker = py.import("marketcurves._args")?.getattr("date")?;
    checker.call1((value, name))?.extract()
}

// The doc comments below are what `help(mc.Tenor)` shows, Python's view of
// them: the class comes from here, with no Python wrapper. The reference
// reads the fuller docstrings of `_core.pyi`.

/// A contract period (tenor) name, parsed.
///
/// The four shapes of the interface are read as calendar periods: monthly
/// ``Jan 25``, quarterly ``Q1 25``, 5-day windows ``1-5 Jan 25`` …
/// ``26-EOM Feb 24`` (EOM is the month's last day) and continuous ``C 00``,
/// ``C 01``, ``C 02``. Two-digit years are years of this century. Any other
/// name (the live feed has shapes the interface does not show) is kind
/// ``"other"``. ``Tenor(name)`` parses strictly, as ``Tenor.parse(name)``
/// does.
///
/// Tenors sort in calendar order: continuous first, then calendar periods by
/// start date and, for the same start, shorter first, then other names; the
/// name breaks ties. Equality and hashing follow the exact name, and a tenor
/// equals its name as a ``str``. ``str(tenor)`` gives the name back
/// unchanged.
#[pyclass(frozen, name = "Tenor", module = "marketcurves")]
pub struct PyTenor(pub Tenor);

#[pymethods]
impl PyTenor {
    #[new]
    fn new(name: &Bound<'_, PyAny>) -> CoreResult<Self> {
        Ok(PyTenor(Tenor::parse(
            &checked(name, "text", "name")?.extract::<String>()?,
        )?))
    }

    /// Parses a tenor name, as the service writes it.
    ///
    /// With ``strict`` (the default), one of the interface's four shapes
    /// with impossible values (``Q5 24``, ``3-7 Jan 24``) raises
    /// ``InvalidRequest`` naming the reason; without, it is kept as kind
    /// ``"other"``, as the package does for names the service sends.
    #[staticmethod]
    // Taken as objects so that a wrong type is an InvalidRequest; the text
    // signature shows the real default.
    #[pyo3(signature = (name, strict = None), text_signature = "(name, strict=True)")]
    fn parse(name: &Bound<'_, PyAny>, strict: Option<&Bound<'_, PyAny>>) -> CoreResult<Self> {
        let name: String = checked(name, "text", "name")?.extract()?;
        let strict = strict.map_or(Ok(true), |s| checked(s, "flag", "strict")?.extract())?;
        if strict {
            Ok(PyTenor(Tenor::parse(&name)?))
        } else {
            Ok(PyTenor(Tenor::parse_lenient(&name)))
        }
    }

    /// The names of the tenors of ``kind`` (``"month"``, ``"quarter"`` or
    /// ``"window"``) whose delivery overlaps ``start`` to ``end``, both
    /// included, in calendar order: the contracts to ask for to cover the
    /// range, expired ones included. The days are dates, datetimes (their
    /// UTC day) or ``"YYYY-MM-DD"``.
    // The dates are checked by `marketcurves._args.date`.
    #[staticmethod]
    fn range(
        kind: &Bound<'_, PyAny>,
        start: &Bound<'_, PyAny>,
        end: &Bound<'_, PyAny>,
    ) -> CoreResult<Vec<String>> {
        let kind: String = checked(kind, "text", "kind")?.extract()?;
        let start: NaiveDate = checked_date(start, "start")?;
        let end: NaiveDate = checked_date(end, "end")?;
        super::curves::tenor_range(&kind, start, end)
    }

    /// The name exactly as given.
    #[getter]
    fn name(&self) -> &str {
        self.0.name()
    }

    /// ``"month"``, ``"quarter"``, ``"window"``, ``"continuous"`` or ``"other"``.
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind().as_str()
    }

    /// The first day of the period; None for continuous and other tenors.
    #[getter]
    fn start(&self) -> Option<NaiveDate> {
        self.0.start()
    }

    /// The last day of the period (included); None for continuous and other
    /// tenors.
    #[getter]
    fn end(&self) -> Option<NaiveDate> {
        self.0.end()
    }

    /// A key that orders names as tenors order:
    /// ``sorted(names, key=lambda n: Tenor.parse(n, strict=False).sort_key)``.
    #[getter]
    fn sort_key(&self) -> (u8, i32, i32, &str) {
        let (rank, a, b) = self.0.sort_key();
        (rank, a, b, self.0.name())
    }

    fn __str__(&self) -> &str {
        self.0.name()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let name = PyString::new(py, self.0.name()).repr()?;
        let kind = self.kind();
        Ok(match (self.0.start(), self.0.end()) {
            (Some(start), Some(end)) => {
                format!("Tenor({name}, kind='{kind}', start={start}, end={end})")
            }
            _ => format!("Tenor({name}, kind='{kind}')"),
        })
    }

    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        use super::html;
        let mut rows = vec![("kind", html::value(py, self.kind())?)];
        if let (Some(start), Some(end)) = (self.0.start(), self.0.end()) {
            rows.push(("delivery", html::value(py, format!("{start} .. {end}"))?));
        }
        html::facts(py, &format!("Tenor {}", self.0.name()), rows)
    }

    /// Equal names hash alike, and a tenor equals its name as a `str`.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyString::new(py, self.0.name()).hash()
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let py = other.py();
        let outcome = if let Ok(other) = other.cast::<PyTenor>() {
            Some(op.matches(self.0.cmp(&other.get().0)))
        } else if let Ok(name) = other.extract::<String>() {
            match op {
                CompareOp::Eq => Some(self.0.name() == name),
                CompareOp::Ne => Some(self.0.name() != name),
                _ => None,
            }
        } else {
            None
        };
        match outcome {
            Some(result) => result
                .into_pyobject(py)
                .expect("bool")
                .to_owned()
                .into_any()
                .unbind(),
            None => py.NotImplemented(),
        }
    }

    /// Pickles by name, restored without the strict check so that a name kept
    /// as `other` comes back as it was.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let parse = slf.get_type().getattr("parse")?;
        let args = (slf.get().0.name(), false);
        PyTuple::new(slf.py(), [parse, args.into_pyobject(slf.py())?.into_any()])
    }
}
