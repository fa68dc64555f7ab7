// The recogniser's dictionary: class 0 is the CTC blank, class k >= 1 the dictionary file's line k,
// the last class a space (PaddleOCR's keys files with use_space_char). Texts to class ids and back,
// and the alphabets a map uses.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace light::text {

class Dictionary {
 public:
  // A keys file (one character a line); `classes` the recogniser's (checked: lines + blank + space).
  Dictionary(const std::string& keys_path, int classes);
  const std::string& text(int id) const { return texts_.at(static_cast<size_t>(id)); }
  int classes() const { return static_cast<int>(texts_.size()); }
  int space() const { return classes() - 1; }
  // "latin": Latin letters with their diacritics (Basic Latin, Latin-1, Latin Extended-A/B and
  // Additional), digits, punctuation and symbols of Basic Latin and Latin-1, typographic quotes and
  // dashes, the space; "all": every class. The blank is always allowed.
  std::vector<bool> allowed(const std::string& alphabet) const;
  // A text's class ids, character by character (a space is the space class); nullopt when a
  // character is not in the dictionary.
  std::optional<std::vector<int>> encode(const std::string& text) const;

 private:
  std::vector<std::string> texts_;
  std::map<std::u32string, int> ids_;
};

}  // namespace light::text
