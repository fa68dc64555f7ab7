// UTF-8 <-> Unicode code points. Strings are UTF-8 everywhere in light; metrics that count
// characters (edit distances) count code points, as Python's str does.
#pragma once
#include <string>
#include <string_view>

namespace light {

// Decodes UTF-8 into code points. Invalid sequences are an error (light::Error) since every
// string reaching this point was validated by the JSON parser.
std::u32string utf8_decode(const std::string& s);

// `text` without a leading UTF-8 byte-order mark (Windows tools write one before JSON and CSV).
inline std::string_view without_bom(std::string_view text) { return text.substr(text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0); }

// The length of the valid UTF-8 prefix of `s` (all of it when valid): overlong forms, surrogates and
// code points past U+10FFFF are invalid, as JSON writers hold them.
size_t valid_utf8_prefix(std::string_view s);
inline bool is_valid_utf8(std::string_view s) { return valid_utf8_prefix(s) == s.size(); }
// `s` for a message: bytes that are not UTF-8 written as \xNN ("caf\xE9.png", a Latin-1 name).
std::string shown_bytes(std::string_view s);

// Encodes code points as UTF-8.
std::string utf8_encode(const std::u32string& s);

}  // namespace light
