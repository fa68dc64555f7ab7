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
  // This dictionary with `more` characters (one UTF-8 character each) after its own, before the space:
  // the dictionary of a recogniser given classes for them (model::with_classes_added).
  Dictionary with_characters(const std::vector<std::string>& more) const;
  // The keys file of this dictionary: its characters one a line.
  std::string keys_text() const;
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
  Dictionary() = default;
  void index();
  std::vector<std::string> texts_;
  std::map<std::u32string, int> ids_;
};

}  // namespace light::text
