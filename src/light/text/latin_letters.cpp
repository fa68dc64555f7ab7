#include "light/text/latin_letters.h"

#include <map>

namespace light::text {

namespace {
// Pairs of (letter, plain letter): Latin-1's letters (U+00C0-U+00FF but the multiplication and division
// signs) and Latin Extended-A's (U+0100-U+017F, the long s last), the plain letter by Unicode's
// canonical decomposition, or by shape where there is none (Æ A, Ø O, ß s, Ł L, ſ f).
const std::u32string& pairs() {
  static const std::u32string p =
      U"ÀAÁAÂAÃAÄAÅAÆAÇCÈEÉEÊEËEÌIÍIÎIÏIÐDÑNÒOÓOÔOÕOÖOØOÙUÚUÛUÜUÝYÞPßsàa"
      U"áaâaãaäaåaæaçcèeéeêeëeìiíiîiïiðdñnòoóoôoõoöoøoùuúuûuüuýyþpÿyĀAāa"
      U"ĂAăaĄAąaĆCćcĈCĉcĊCċcČCčcĎDďdĐDđdĒEēeĔEĕeĖEėeĘEęeĚEěeĜGĝgĞGğgĠGġg"
      U"ĢGģgĤHĥhĦHħhĨIĩiĪIīiĬIĭiĮIįiİIıiĲIĳiĴJĵjĶKķkĸkĹLĺlĻLļlĽLľlĿLŀlŁL"
      U"łlŃNńnŅNņnŇNňnŉnŊNŋnŌOōoŎOŏoŐOőoŒOœoŔRŕrŖRŗrŘRřrŚSśsŜSŝsŞSşsŠSšs"
      U"ŢTţtŤTťtŦTŧtŨUũuŪUūuŬUŭuŮUůuŰUűuŲUųuŴWŵwŶYŷyŸYŹZźzŻZżzŽZžzſf";
  return p;
}

const std::map<char32_t, char32_t>& plain_of() {
  static const std::map<char32_t, char32_t> m = [] {
    std::map<char32_t, char32_t> out;
    for (size_t k = 0; k + 1 < pairs().size(); k += 2) out.emplace(pairs()[k], pairs()[k + 1]);
    return out;
  }();
  return m;
}
}  // namespace

const std::vector<char32_t>& latin_letters() {
  static const std::vector<char32_t> letters = [] {
    std::vector<char32_t> out;
    for (size_t k = 0; k + 1 < pairs().size(); k += 2) out.push_back(pairs()[k]);
    return out;
  }();
  return letters;
}

char32_t plain_letter(char32_t letter) {
  const auto it = plain_of().find(letter);
  return it == plain_of().end() ? 0 : it->second;
}

}  // namespace light::text
