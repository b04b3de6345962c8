"""The questions pricebench answers: one object per kind of answer, declared once.

Each question is a frozen query object (what a selector answers) and the form that
validates it, with its defaults and the notes of what it dropped. The page, the API (its
OpenAPI parameters come from the same form, `api/schema.py`) and the CSV export all go
through it. Questions read no data: what depends on the data (a benchmark's own parameters,
the regions with prices) is handed to them.
"""

from benchmarks.questions.base import RESERVED, QueryForm, QuestionForm, comma_list
from benchmarks.questions.parameters import benchmark_params, coerce_param
from benchmarks.questions.price_performance import (
    PricePerformanceForm,
    PricePerformanceQuery,
    lenient_query,
)
from benchmarks.questions.scaling import (
    DIRECTIONS,
    DatabaseForm,
    NetworkScalingForm,
    VolumePerformanceForm,
)
from benchmarks.questions.unit_prices import UnitPricesForm, UnitPricesQuery
from benchmarks.questions.volumes import Gp2BurstForm, VolumeCostForm, VolumesForm

__all__ = [
    "DIRECTIONS",
    "RESERVED",
    "DatabaseForm",
    "Gp2BurstForm",
    "NetworkScalingForm",
    "PricePerformanceForm",
    "PricePerformanceQuery",
    "QueryForm",
    "QuestionForm",
    "UnitPricesForm",
    "UnitPricesQuery",
    "VolumeCostForm",
    "VolumePerformanceForm",
    "VolumesForm",
    "benchmark_params",
    "coerce_param",
    "comma_list",
    "lenient_query",
]
