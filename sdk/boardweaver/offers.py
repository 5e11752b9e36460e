"""Offers: the actions a seat may take now, each with its intent, label and reveal mark."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any

from .messages import Message


class Intent(enum.Enum):
    """How a step moves its decision along: a Choice stays open, a Confirm ends it, a Cancel steps aside."""

    CHOICE = "choice"
    CONFIRM = "confirm"
    CANCEL = "cancel"


@dataclass(frozen=True, init=False)
class Action:
    """A click on a piece or a space, or a named command with arguments."""

    type: str  # "piece" | "space" | "command"
    space_id: str | None = None
    index: int | None = None
    name: str | None = None
    args: tuple[tuple[str, Any], ...] = ()

    def __init__(
        self,
        type: str,
        space_id: str | None = None,
        index: int | None = None,
        name: str | None = None,
        args: tuple[tuple[str, Any], ...] = (),
    ) -> None:
        # Fills the fields in place: a frozen dataclass's own __init__ calls object.__setattr__ per field,
        # twice as slow, and actions and offers are made for every offer and step the server checks.
        fields = self.__dict__
        fields["type"] = type
        fields["space_id"] = space_id
        fields["index"] = index
        fields["name"] = name
        fields["args"] = args

    @classmethod
    def piece_click(cls, space_id: str, index: int) -> Action:
        return cls("piece", space_id=space_id, index=index)

    @classmethod
    def space_click(cls, space_id: str) -> Action:
        return cls("space", space_id=space_id)

    @classmethod
    def command(cls, name: str, **args: Any) -> Action:
        return cls("command", name=name, args=tuple(sorted(args.items())))

    @property
    def arguments(self) -> dict[str, Any]:
        """A command's arguments as a map."""
        return dict(self.args)

    def with_index(self, index: int) -> Action:
        return replace(self, index=index)

    def to_wire(self) -> dict[str, Any]:
        if self.type == "piece":
            return {"type": "piece", "space": self.space_id, "index": self.index}
        if self.type == "space":
            return {"type": "space", "space": self.space_id}
        wire: dict[str, Any] = {"type": "command", "name": self.name}
        if self.args:
            wire["args"] = dict(self.args)
        return wire

    @classmethod
    def from_wire(cls, data: Any) -> Action:
        """Parses an action from its wire form, raising ValueError with what was expected."""
        if not isinstance(data, dict):
            raise ValueError(f"expected an action object, got {type(data).__name__}")
        kind = data.get("type")
        if kind == "piece":
            space, index = data.get("space"), data.get("index")
            if not isinstance(space, str) or type(index) is not int:
                raise ValueError("expected a piece action {'type': 'piece', 'space': str, 'index': int}")
            return cls.piece_click(space, index)
        if kind == "space":
            space = data.get("space")
            if not isinstance(space, str):
                raise ValueError("expected a space action {'type': 'space', 'space': str}")
            return cls.space_click(space)
        if kind == "command":
            name, args = data.get("name"), data.get("args", {})
            if not isinstance(name, str) or not isinstance(args, dict):
                raise ValueError("expected a command {'type': 'command', 'name': str, 'args': {...}}")
            for value in args.values():
                if isinstance(value, (dict, list)):
                    raise ValueError("expected command arguments to be plain values")
            return cls.command(name, **args)
        raise ValueError(f"expected an action type 'piece', 'space' or 'command', got {kind!r}")

    def describe(self) -> str:
        """Returns a short text naming the action, for error messages (public facts only)."""
        if self.type == "piece":
            return f"click on piece {self.index} of {self.space_id!r}"
        if self.type == "space":
            return f"click on space {self.space_id!r}"
        return f"command {self.name!r}"


@dataclass(frozen=True, init=False)
class Offer:
    """An action offered to a seat, with its intent; build with `.label(msg(...))` and `.revealing()`."""

    action: Action
    intent: Intent
    label_message: Message | None = None
    reveals: bool = False

    def __init__(
        self, action: Action, intent: Intent, label_message: Message | None = None, reveals: bool = False
    ) -> None:
        fields = self.__dict__  # in place, as Action does
        fields["action"] = action
        fields["intent"] = intent
        fields["label_message"] = label_message
        fields["reveals"] = reveals

    def label(self, message: Message) -> Offer:
        """Returns this offer with a label; only the seat offered reads it, so it may name its secrets."""
        return Offer(self.action, self.intent, message, self.reveals)

    def revealing(self) -> Offer:
        """Returns this offer marked as a reveal: its result depends on a part the seat cannot see."""
        return Offer(self.action, self.intent, self.label_message, True)

    def ends_decision(self) -> bool:
        return self.reveals or self.intent is Intent.CONFIRM

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {"action": self.action.to_wire(), "intent": self.intent.value}
        if self.label_message is not None:
            wire["label"] = self.label_message.to_wire()
        if self.reveals:
            wire["revealing"] = True
        return wire

    @classmethod
    def from_wire(cls, data: Any) -> Offer:
        if not isinstance(data, dict):
            raise ValueError(f"expected an offer object, got {type(data).__name__}")
        label = data.get("label")
        return cls(
            Action.from_wire(data.get("action")),
            Intent(data.get("intent")),
            None if label is None else Message.from_wire(label),
            bool(data.get("revealing", False)),
        )


def find_offer(offers: list[Offer], action: Action) -> Offer | None:
    """Returns the offer for `action`, or None when it is not offered."""
    for offer in offers:
        if offer.action == action:
            return offer
    return None
