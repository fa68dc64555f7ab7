// The BPE tokenizer files: vocab.json + merges.txt (split at the first NUL byte) or tokenizer.json
// (first byte odd); an accepted tokenizer then encodes and decodes text.
#include <cstddef>
#include <cstdint>
#include <string>

#include "light/text/bpe.h"
#include "light/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string in(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    light::text::BpeTokenizer t = (data[0] & 1) ? light::text::BpeTokenizer::from_tokenizer_json_text(in, "tokenizer.json") : [&] {
      const auto cut = in.find('\0');
      return light::text::BpeTokenizer::from_vocab_merges_text(in.substr(0, cut), cut == std::string::npos ? "" : in.substr(cut + 1),
                                                                "vocab.json", "merges.txt");
    }();
    for (const char* word : {"Lodge Pole Cr.", "DENVER", "\xc3\xa9t\xc3\xa9 1885", "x"}) {
      const auto ids = t.encode_word(word);
      for (int64_t id : ids)
        if (id < -1 || id > t.max_id()) __builtin_trap();  // ids index the vocabulary (or -1: unknown)
      (void)t.decode(ids);
    }
  } catch (const light::Error&) {
  }
  return 0;
}
