# Type stubs of the tcosim package (docs/python.md). Money in USD throughout.
import os
from typing import Any, Mapping, Optional, Union

import numpy as np
import numpy.typing as npt
import pandas as pd

__version__: str

Scenario = Union[str, os.PathLike[str], Mapping[str, Any]]
PathArg = Union[str, os.PathLike[str]]

class InputError(ValueError):
    file: str
    pointer: str
    reason: str
    def __init__(self, message: str, file: str = ..., pointer: str = ..., reason: str = ...) -> None: ...

class ModelError(ValueError): ...

class Report:
    @property
    def json(self) -> dict[str, Any]: ...
    @property
    def text(self) -> str: ...
    @property
    def npv_by_path(self) -> npt.NDArray[np.float64]: ...
    @property
    def plans(self) -> pd.DataFrame: ...
    @property
    def cash_flows(self) -> pd.DataFrame: ...
    def to_html(self) -> str: ...
    def to_markdown(self) -> str: ...
    def to_xlsx(self, path: PathArg) -> None: ...

def run(
    scenario: Scenario,
    paths: Optional[int] = ...,
    seed: Optional[int] = ...,
    threads: int = ...,
    *,
    catalog: Optional[PathArg] = ...,
    base_dir: Optional[PathArg] = ...,
    name: str = ...,
    today: Optional[str] = ...,
    max_age_days: int = ...,
    progress: bool = ...,
) -> Report: ...
def validate(
    scenario: Scenario, *, catalog: Optional[PathArg] = ..., base_dir: Optional[PathArg] = ..., name: str = ...
) -> list[dict[str, str]]: ...
def optimize(
    scenario: Scenario,
    *,
    nodes: Optional[str] = ...,
    plan: Optional[str] = ...,
    risk: Optional[str] = ...,
    search: Optional[str] = ...,
    paths: Optional[int] = ...,
    seed: Optional[int] = ...,
    threads: int = ...,
    catalog: Optional[PathArg] = ...,
    base_dir: Optional[PathArg] = ...,
    today: Optional[str] = ...,
    **options: Any,
) -> dict[str, Any]: ...
def sensitivity(
    scenario: Scenario,
    *,
    plan: Optional[str] = ...,
    paths: Optional[int] = ...,
    seed: Optional[int] = ...,
    threads: int = ...,
    catalog: Optional[PathArg] = ...,
    base_dir: Optional[PathArg] = ...,
    today: Optional[str] = ...,
) -> dict[str, Any]: ...
def sweep(
    scenario: Scenario,
    grid: Union[PathArg, Mapping[str, Any]],
    *,
    paths: Optional[int] = ...,
    seed: Optional[int] = ...,
    threads: int = ...,
    catalog: Optional[PathArg] = ...,
    base_dir: Optional[PathArg] = ...,
    today: Optional[str] = ...,
    **options: Any,
) -> dict[str, Any]: ...
def diff(
    base: Union[PathArg, Report, Mapping[str, Any]],
    new: Union[PathArg, Report, Mapping[str, Any]],
    *,
    tolerance: Optional[str] = ...,
    abs_tolerance_usd: Optional[float] = ...,
) -> dict[str, Any]: ...
def import_trace(path: PathArg, *, format: str, out: PathArg, **options: Any) -> str: ...
def import_demand(path: PathArg, *, format: str, out: PathArg, **options: Any) -> str: ...
