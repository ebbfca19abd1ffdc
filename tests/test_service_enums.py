"""service.enums: every proto enum value has one Python counterpart, both ways,
and the client's and the server's contract mappings agree."""
from __future__ import annotations

import pytest

from solver.notation import Contract
from service import convert, enums
from service.client import contract_fields, contract_message
from service.errors import RequestError

TABLES = [enums.SEATS, enums.STRAINS, enums.CONTRACT_KINDS, enums.CONVENTIONS, enums.SCORE_KINDS, enums.DECISIONS,
          enums.LAYOUT_MODES, enums.DISCARD_MODELS, enums.DEFENCE_RULES]
CONTRACTS = [f"{level}{strain}" for level in range(6, 11) for strain in ("s", "c", "d", "h", "nt")] + ["misere", "allpass"]


@pytest.mark.parametrize("table", TABLES, ids=lambda table: table.name)
def test_every_value_maps_both_ways(table: enums.EnumTable) -> None:
    numbers = [value.number for value in table.enum_type.DESCRIPTOR.values if value.number != 0]
    assert numbers
    for number in numbers:
        python = table.from_proto(number, "f")
        assert table.to_proto(python) == number
        name = table.enum_type.Name(number)[len(table.prefix):]
        assert table.from_text(name.lower()) == number
    with pytest.raises(RequestError, match=f"field 'f': unknown {table.name} value 99"):
        table.from_proto(99, "f")
    with pytest.raises(ValueError, match=f"unknown {table.what} 'nonsense'"):
        table.from_text("nonsense")


def test_unset_fields() -> None:
    assert enums.LAYOUT_MODES.from_proto(0, "mode") == "auto"
    assert enums.DEFENCE_RULES.from_proto(0, "defence") == "whist"
    assert enums.DISCARD_MODELS.from_proto(0, "model") == "best"
    assert enums.DECISIONS.from_proto(0, "decision") is None
    with pytest.raises(RequestError, match="field 'seat' is required: one of SEAT_FIRST, SEAT_SECOND, SEAT_THIRD"):
        enums.SEATS.required(0, "seat")


@pytest.mark.parametrize("text", CONTRACTS)
def test_client_and_server_contracts_agree(text: str) -> None:
    contract = Contract.parse(text)
    assert convert.contract_from_proto(contract_message(contract), "contract") == contract
    kind, strain = contract_fields(contract)
    from_fields = convert.contract_from_fields(kind, strain)
    assert (from_fields.kind, from_fields.strain) == (contract.kind, contract.strain)
    assert convert.contract_from_proto(convert.contract_to_proto(contract), "contract") == contract


def test_one_contract_check_names_the_field_path() -> None:
    kind, strain = contract_fields("7h")
    with pytest.raises(RequestError, match=r"field 'contract\.level': 11 is out of range 6\.\.10"):
        convert.contract_from_fields(kind, strain, 11, prefix="contract.")
    with pytest.raises(RequestError, match=r"field 'strain' must be unset for CONTRACT_KIND_MISERE"):
        convert.contract_from_fields(contract_fields("misere")[0], strain)
