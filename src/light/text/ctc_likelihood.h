// How likely a CTC recogniser finds a given text: the sum over every path of steps that collapses to it
// (blanks between, repeats merged; Graves et al. 2006's forward pass), in natural logarithms. The
// greedy reading is one path; a name another reading could be, scored on the same steps, says how well
// the pixels bear it out (geo/word_rereading).
#pragma once
#include <vector>

namespace light::text {

// `log_probs`: [steps, classes] row-major, each step's log-probabilities; column 0 the blank. `label`:
// the text as columns (none 0). -infinity when no path of `steps` writes it (a label needs a step a
// character and one more between two equal characters).
double ctc_log_likelihood(const std::vector<float>& log_probs, int steps, int classes, const std::vector<int>& label);

}  // namespace light::text
