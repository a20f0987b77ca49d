"""What a battle calculator reports (`cardgen odds`): outcomes, survivors, losses and length, as text or JSON."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class BattleReport:
    """A game calculator's exact result (`cardgen odds`): each outcome's probability, the survivors' distribution per
    side, the expected cost lost per side (`lost_in`: CP, resources…), the expected length (`length_in`: rounds,
    phases…), the states the chain visited, the policies it assumed and the probability it did not follow (the
    cells under the lattice's FLOOR; the other calculators follow every state)."""

    outcomes: dict[str, float]
    survivors: list[dict[str, float]]
    lost: list[float]
    length: float
    states: int
    policies: list[str]
    lost_in: str
    length_in: str
    unfollowed: float = 0.0

    def as_json(self) -> dict[str, object]:
        key = self.lost_in.lower()
        return {
            "outcomes": {k: round(v, 6) for k, v in self.outcomes.items()},
            "survivors": {side: {k: round(v, 6) for k, v in dist.items()}
                          for side, dist in zip(("attacker", "defender"), self.survivors, strict=True)},
            f"expected_{key}_lost": {"attacker": round(self.lost[0], 4), "defender": round(self.lost[1], 4)},
            f"expected_{self.length_in}": round(self.length, 4),
            "states": self.states,
            "unfollowed": self.unfollowed,
            "policies": self.policies,
        }  # fmt: skip
