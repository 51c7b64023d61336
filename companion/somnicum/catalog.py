"""The Somnicum catalog: storylines and particles, Dream cards, Goal cards, Meeting cards and
Sleep Sand tokens, as TOML data an owner can correct.

The card lists are not published, so everything the rulebook does not fix lives under
``companion/data/somnicum/`` (or a directory of the owner's), marked ``provisional``. What the box
holds (88 Dream cards, 8 Goal cards, 72 tokens, 24 Meeting cards) is data too, in ``box.toml``,
and each deck must match it. Meeting cards are written in a small vocabulary of effects
(``MEETING_EFFECTS``) that the rules interpret. ``docs/CATALOG.md`` describes the format.

``load_catalog`` returns the whole catalog or raises the first ``CatalogError`` (naming the file,
the entry and the field); ``check_catalog`` lists every error.

>>> catalog = load_catalog()
>>> len(catalog.dream_cards), len(catalog.goals), len(catalog.meetings), len(catalog.tokens)
(88, 8, 24, 72)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.catalog import DATA_DIR, CatalogCache, CatalogError, EntryReader, read_copies, read_entries, read_tables
from companion.somnicum.dream import DreamCard

CATALOG_DIR = DATA_DIR / "somnicum"
FILES = ("box.toml", "storylines.toml", "dream_cards.toml", "goals.toml", "meetings.toml", "tokens.toml")

BACKS = ("sand", "blank")
MEETING_KINDS = ("one_time", "permanent")
# The effect vocabulary of Meeting cards; the value says whether it takes an `amount`.
MEETING_EFFECTS = {
    "draw_tokens": True,
    "free_steps": True,
    "extra_particle": False,
    "single_token": False,
    "continuous": False,
    "victory_points": True,
}
# Effects that only make sense while the card lies in front of its owner.
PERMANENT_ONLY = ("single_token", "victory_points")
BOX_FIELDS = ("dream_cards", "goal_cards", "sleep_sand_tokens", "meeting_cards")


@dataclass(frozen=True)
class Storyline:
    id: str
    name: str
    particles: tuple[str, ...]
    provisional: bool


@dataclass(frozen=True)
class DreamCardSpec:
    """One Dream card of the box. ``storyline`` is "" for a Nightmare (it matches every one)."""

    id: str
    name: str
    storyline: str
    stars: int
    particles: tuple[str, ...]
    meeting: bool
    nightmare: bool
    provisional: bool
    entry: str  # the catalog entry it comes from (copies share it)

    def dream_card(self, token_particles: tuple[str, ...] = ()) -> DreamCard:
        """The card as the scoring code sees it, with the particles of tokens placed on it."""
        return DreamCard(
            stars=self.stars,
            particles=self.particles,
            tokens=token_particles,
            nightmare=self.nightmare,
            name=self.name,
            storyline=self.storyline,
            meeting=self.meeting,
        )


@dataclass(frozen=True)
class GoalCard:
    id: str
    particles: tuple[str, ...]
    provisional: bool


@dataclass(frozen=True)
class MeetingCard:
    id: str
    name: str
    kind: str  # one_time | permanent
    effect: str  # a key of MEETING_EFFECTS
    amount: int
    text: str
    provisional: bool
    entry: str

    @property
    def permanent(self) -> bool:
        return self.kind == "permanent"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "kind": self.kind, "effect": self.effect,
            "amount": self.amount, "text": self.text,
        }


@dataclass(frozen=True)
class Token:
    """One Sleep Sand token: a particle on its face, Sleep Sand or nothing on its back."""

    id: str
    particle: str
    storyline: str
    back: str  # sand | blank
    provisional: bool
    kind: str = ""  # "particle/back": tokens of one kind cannot be told apart at the table

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", f"{self.particle}/{self.back}")


@dataclass(frozen=True)
class Catalog:
    directory: str
    box: dict[str, int]
    storylines: dict[str, Storyline]
    particle_storyline: dict[str, str]
    dream_cards: dict[str, DreamCardSpec]
    goals: dict[str, GoalCard]
    meetings: dict[str, MeetingCard]
    tokens: dict[str, Token]
    # Quick look-ups for the rules' inner loops: token id -> kind ("particle/back"), particle.
    token_kind: dict[str, str] = field(default_factory=dict)
    token_particle: dict[str, str] = field(default_factory=dict)
    card_names: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.token_kind.update((t.id, t.kind) for t in self.tokens.values())
        self.token_particle.update((t.id, t.particle) for t in self.tokens.values())
        self.card_names.update((c.id, c.name) for c in self.dream_cards.values())

    def card_name(self, card: str) -> str:
        return self.card_names.get(card, card)

    def storyline_name(self, storyline: str) -> str:
        return self.storylines[storyline].name if storyline in self.storylines else "Nightmare"




def load_catalog(dir: str | Path | None = None) -> Catalog:  # noqa: A002 - the agreed name
    """Loads (once per directory) and validates a Somnicum catalog; raises CatalogError."""
    return _CATALOGS.load(dir)


def check_catalog(dir: str | Path | None = None) -> list[CatalogError]:  # noqa: A002
    """Every error in a catalog directory (an empty list when it is sound)."""
    return _CATALOGS.check(dir)


def _read_catalog(directory: Path, errors: list[CatalogError]) -> Catalog | None:
    tables = read_tables(directory, FILES, errors)
    box = _box(str(directory / "box.toml"), tables["box.toml"], errors)
    storylines = read_entries(directory / "storylines.toml", tables["storylines.toml"], _storyline, errors)
    particle_storyline: dict[str, str] = {}
    for story in storylines.values():
        for particle in story.particles:
            if particle in particle_storyline:
                errors.append(CatalogError(
                    str(directory / "storylines.toml"),
                    f"particle {particle!r} is already in storyline {particle_storyline[particle]!r}: "
                    "a particle belongs to one storyline only",
                    story.id, "particles",
                ))
            particle_storyline.setdefault(particle, story.id)
    cards = read_copies(
        directory / "dream_cards.toml", tables["dream_cards.toml"],
        lambda r, card_id: _dream_card(r, card_id, storylines, particle_storyline), errors,
    )
    goals = read_entries(directory / "goals.toml", tables["goals.toml"], lambda r: _goal(r, particle_storyline), errors)
    meetings = read_copies(directory / "meetings.toml", tables["meetings.toml"], _meeting, errors)
    tokens: dict[str, Token] = {}
    for entry in read_entries(
        directory / "tokens.toml", tables["tokens.toml"], lambda r: _tokens(r, particle_storyline), errors
    ).values():
        tokens.update((t.id, t) for t in entry)
    if not errors:
        _check_counts(directory, box, cards, goals, meetings, tokens, errors)
    if errors:
        return None
    return Catalog(str(directory), box, storylines, particle_storyline, cards, goals, meetings, tokens)


def _box(file: str, table: dict[str, Any], errors: list[CatalogError]) -> dict[str, int]:
    box: dict[str, int] = {}
    for key in sorted(set(table) - set(BOX_FIELDS)):
        errors.append(CatalogError(file, f"unknown field (known: {', '.join(BOX_FIELDS)})", field=key))
    for key in BOX_FIELDS:
        value = table.get(key)
        if value is None:
            if table:  # a missing file is already reported
                errors.append(CatalogError(file, "is missing", field=key))
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            errors.append(CatalogError(file, f"must be a whole number of at least 1, not {value!r}", field=key))
            continue
        box[key] = value
    return box






def _particles(r: EntryReader, known: dict[str, str], low: int, high: int) -> tuple[str, ...]:
    particles = tuple(r.str_list("particles"))
    if not low <= len(particles) <= high:
        span = f"exactly {low}" if low == high else f"{low} to {high}"
        raise r.error("particles", f"must list {span} particles, not {len(particles)}")
    for particle in particles:
        if particle not in known:
            raise r.error("particles", f"{particle!r} is not a particle of any storyline (storylines.toml)")
    if len(set(particles)) != len(particles):
        raise r.error("particles", "lists a particle twice")
    return particles


def _storyline(r: EntryReader) -> Storyline:
    particles = tuple(r.str_list("particles"))
    if not particles:
        raise r.error("particles", "must list at least one particle")
    if len(set(particles)) != len(particles):
        raise r.error("particles", "lists a particle twice")
    return Storyline(r.entry, r.str("name"), particles, r.bool("provisional", False))


def _dream_card(
    r: EntryReader, card_id: str, storylines: dict[str, Storyline], known: dict[str, str]
) -> DreamCardSpec:
    nightmare = r.bool("nightmare", False)
    if nightmare:
        if "storyline" in r.data:
            raise r.error("storyline", "a Nightmare belongs to no storyline")
        storyline = ""
        # "Each Nightmare card shows six dream particles from different storylines."
        particles = _particles(r, known, 6, 6)
        if len({known[p] for p in particles}) < 2:
            raise r.error("particles", "a Nightmare shows particles from different storylines")
    else:
        storyline = r.str("storyline", choices=storylines)
        particles = _particles(r, known, 1, 3)
        for particle in particles:
            if known[particle] != storyline:
                raise r.error(
                    "particles",
                    f"{particle!r} belongs to {known[particle]!r}: a card shows only particles of its own storyline",
                )
    meeting = r.bool("meeting", False)
    if nightmare and meeting:
        raise r.error("meeting", "a Nightmare carries no meeting symbol here")
    return DreamCardSpec(
        id=card_id,
        name=r.str("name", r.entry),
        storyline=storyline,
        stars=r.int("stars", low=0, high=9),
        particles=particles,
        meeting=meeting,
        nightmare=nightmare,
        provisional=r.bool("provisional", False),
        entry=r.entry,
    )


def _goal(r: EntryReader, known: dict[str, str]) -> GoalCard:
    return GoalCard(r.entry, _particles(r, known, 3, 3), r.bool("provisional", False))


def _meeting(r: EntryReader, card_id: str) -> MeetingCard:
    kind = r.str("kind", choices=MEETING_KINDS)
    effect = r.str("effect", choices=MEETING_EFFECTS)
    if MEETING_EFFECTS[effect]:
        amount = r.int("amount", low=1, high=9)
    elif "amount" in r.data:
        raise r.error("amount", f"the effect {effect!r} takes no amount")
    else:
        amount = 0
    if effect in PERMANENT_ONLY and kind != "permanent":
        raise r.error("kind", f"the effect {effect!r} only works on a permanent card")
    return MeetingCard(
        id=card_id,
        name=r.str("name"),
        kind=kind,
        effect=effect,
        amount=amount,
        text=r.str("text", ""),
        provisional=r.bool("provisional", False),
        entry=r.entry,
    )


def _tokens(r: EntryReader, known: dict[str, str]) -> list[Token]:
    if r.entry not in known:
        raise r.error(None, "is not a particle of any storyline (storylines.toml)")
    sand = r.int("sand", 0, low=0, high=20)
    blank = r.int("blank", 0, low=0, high=20)
    if sand + blank == 0:
        raise r.error("sand", "a particle listed here needs at least one token (sand or blank)")
    provisional = r.bool("provisional", False)
    backs = ["sand"] * sand + ["blank"] * blank
    return [
        Token(f"{r.entry}_{n}", r.entry, known[r.entry], back, provisional)
        for n, back in enumerate(backs, 1)
    ]


def _check_counts(
    directory: Path,
    box: dict[str, int],
    cards: dict[str, DreamCardSpec],
    goals: dict[str, GoalCard],
    meetings: dict[str, MeetingCard],
    tokens: dict[str, Token],
    errors: list[CatalogError],
) -> None:
    """Each deck holds what box.toml says the box holds."""
    for key, file, found, what in (
        ("dream_cards", "dream_cards.toml", len(cards), "Dream cards"),
        ("goal_cards", "goals.toml", len(goals), "Goal cards"),
        ("meeting_cards", "meetings.toml", len(meetings), "Meeting cards (copies included)"),
        ("sleep_sand_tokens", "tokens.toml", len(tokens), "Sleep Sand tokens (sand + blank)"),
    ):
        if key in box and box[key] != found:
            errors.append(CatalogError(
                str(directory / file),
                f"holds {found} {what}, but box.toml says the box holds {box[key]} ({key})",
            ))


# load_catalog and check_catalog above read through this cache.
_CATALOGS = CatalogCache(_read_catalog, CATALOG_DIR)
