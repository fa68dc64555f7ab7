// Writes the ids that the npm package gpt-3-encoder gives for many strings: handpicked map words
// and names sampled from the GeoNames gazetteer (each as a MapText word, " " + word, and as is).
// usage: node bpe_reference.js PACKAGE_DIR GAZETTEER OUT.json
const fs = require('fs');
const { encode } = require(process.argv[2]);
const picked = [
  "Smith's", "Fork", "Lodge", "Pole", "Cr.", "Lake of the Woods", "Mt. Baldy", "N. Platte R.", "DENVER", "AND",
  "RIO", "GRANDE", "R.R.", "41", "400", "1872", "T.3N.", "R.68W.", "Zürich", "São Paulo", "Łódź", "Cañon City",
  "Saint-Étienne", "Ærøskøbing", "Reykjavík", "Dvůr Králové", "Nakło nad Notecią", "Göteborg", "İstanbul",
  "北京", "上海市", "東京都", "서울", "Москва", "Αθήνα", "القاهرة", "तेल", "ไทย", "Hà Nội", "C O L O R A D O",
  "O'Brien", "don't", "it'll", "we've", "I'm", "she'd", "they're", "ST.", "Ave.", "2nd", "½", "No.", "&", "—",
  "  double  space ", "tab\there", "new\nline", "mixed CASE Words", "e\u0301", "🚂 rail", "###", "NaN", "",
];
const lines = fs.readFileSync(process.argv[3], 'utf-8').split('\n');
const strings = [];
for (const w of picked) { strings.push(' ' + w); strings.push(w); }
for (let i = 0; i < lines.length; i += 9) {
  const name = (lines[i].split('\t')[1] || '').trim();
  if (name) { strings.push(' ' + name.split(' ')[0]); strings.push(name); }
}
fs.writeFileSync(process.argv[4], JSON.stringify({ strings, ids: strings.map(s => encode(s)) }));
