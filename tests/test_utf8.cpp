#include <gtest/gtest.h>

#include "light/error.h"
#include "light/util/unicode.h"
#include "light/util/utf8.h"

using light::utf8_decode;
using light::utf8_encode;

TEST(Utf8, CountsCodePointsNotBytes) {
  EXPECT_EQ(utf8_decode("Zürich").size(), 6u);       // 7 bytes
  EXPECT_EQ(utf8_decode("北京").size(), 2u);          // 6 bytes
  EXPECT_EQ(utf8_decode("𝔄b").size(), 2u);           // 4-byte sequence
  EXPECT_EQ(utf8_decode("")[0], U'\0');
  EXPECT_EQ(utf8_decode("Smith's"), U"Smith's");
}

TEST(Utf8, RoundTrips) {
  for (const std::string s : {"Lodge Pole Cr.", "São Paulo", "Łódź", "東京都", "𝔄𝔅"})
    EXPECT_EQ(utf8_encode(utf8_decode(s)), s);
}

TEST(Utf8, RejectsInvalidBytes) {
  EXPECT_THROW(utf8_decode("\xff"), light::Error);
  EXPECT_THROW(utf8_decode("\xc3"), light::Error);          // truncated
  EXPECT_THROW(utf8_decode("\xe6\x9d\x41"), light::Error);  // bad continuation
}

TEST(Utf8, CapitalsTakeAccentedLettersAlongAndLeaveFiguresAndSigns) {
  EXPECT_EQ(light::to_upper("l'Hôtel de Sèvres, Praça São Bento"), "L'HÔTEL DE SÈVRES, PRAÇA SÃO BENTO");
  EXPECT_EQ(light::to_upper("Straße 12 (dis.)"), "STRAẞE 12 (DIS.)");  // Unicode's capital sharp s
}
