"""``prefdd batch``: every request of the command, analyses included.

The request and answer forms are :mod:`solver.batch`'s; the analysis
requests are :mod:`solver.analysis.requests`'. Each function takes the
solver that answers the requests: the requests are solved in input order,
runs of solve requests in one C call (:func:`solver.batch.evaluate_many`).
"""
from __future__ import annotations

from typing import Any, Sequence

from ..batch import (Answer, BatchRequest, answer_lines, evaluate_many, line_answer, read_line, read_request,
                     solve_request)
from ..engine import SearchStopped, Solver
from ..jsonlines import LineError
from .requests import evaluate_analysis, is_analysis

__all__ = ["evaluate", "evaluate_all", "evaluate_line", "evaluate_lines"]


def evaluate(request: Any, solver: Solver) -> Answer:
    """Answer one request (a dict) with ``solver``; raises ValueError
    subclasses on bad input."""
    if not isinstance(solver, Solver):
        raise TypeError(f"solver must be a Solver, got {type(solver).__name__}")
    parsed = read_request(request)
    if is_analysis(request):
        answer = evaluate_analysis(request, parsed.deal, parsed.contract, solver)
        assert answer is not None
        return answer
    return solve_request(parsed, solver)


def evaluate_all(requests: Sequence[Any], solver: Solver) -> list[Answer | BaseException]:
    """Each request's answer or the error it raises (an error given in place
    of a request is its own answer), as :func:`evaluate` gives them, the
    requests solved in order. A stop raises SearchStopped."""
    if not isinstance(solver, Solver):
        raise TypeError(f"solver must be a Solver, got {type(solver).__name__}")
    results: list[Answer | BaseException] = []
    run: list[BatchRequest | BaseException] = []
    for request in requests:
        if isinstance(request, BaseException):
            run.append(request)
            continue
        try:
            parsed = read_request(request)
            analysis = is_analysis(request)
        except Exception as error:  # noqa: BLE001 - one request's failure is its answer
            run.append(error)
            continue
        if not analysis:
            run.append(parsed)
            continue
        results += evaluate_many(run, solver)   # the solves before it first, in order
        run = []
        try:
            results.append(evaluate_analysis(request, parsed.deal, parsed.contract, solver))  # type: ignore[arg-type]
        except SearchStopped:
            raise
        except Exception as error:  # noqa: BLE001
            results.append(error)
    return results + evaluate_many(run, solver)


def evaluate_lines(lines: Sequence[str | LineError], solver: Solver) -> list[str]:
    """Input lines to output lines, one each (never raises for bad input; a
    stop raises SearchStopped)."""
    return answer_lines(lines, lambda requests: evaluate_all(requests, solver))


def evaluate_line(line: str | LineError, solver: Solver) -> str:
    """One input line to one output line (see :func:`evaluate_lines`)."""
    request: Any = None
    try:
        request = read_line(line)
        answer: Answer | BaseException = evaluate(request, solver)
    except SearchStopped:
        raise
    except Exception as error:  # noqa: BLE001 - one line's failure is that line's answer
        answer = error
    return line_answer(request, answer)
