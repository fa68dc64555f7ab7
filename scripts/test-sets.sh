# The held-out synthetic test sets (seeds 3101-3111, never used in training) that score-model.sh and
# score-spotter.sh read; sourced by them. Each entry: name | light synth arguments.
SETS=(
  "small words (0.5-1.2% of the side)|--seed 3101 --word-height 0.005-0.012"
  "medium words (1.2-3%)|--seed 3102 --word-height 0.012-0.03"
  "large words (3-8%)|--seed 3103 --word-height 0.03-0.08"
  "atlas|--seed 3104 --layouts atlas"
  "topographic|--seed 3105 --layouts topographic"
  "city|--seed 3106 --layouts city"
  "nautical|--seed 3107 --layouts nautical"
  "regional|--seed 3108 --layouts regional"
  "classic 1000 px|--seed 3109 --layouts classic --size 1000 --density 2"
  "curvy 1000 px|--seed 3110 --layouts curvy --size 1000 --density 2"
  "spotter predictions (detrecedges)|--seed 3111 --predictions"
  "the same, 50-point polygons (detrecedges)|--seed 3111 --predictions --spotter-points 50"
)
