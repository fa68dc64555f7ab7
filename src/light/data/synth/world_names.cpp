// Names as sheets outside the classic American mix print them (SynthOptions::world_names): the
// particles and generics of French, Spanish, Italian, Portuguese and German city plans and
// landscapes ("Rue / de / la / Paix", "Statue / de / Danton", "Iglesia / de / San / Juan"), and the
// generics of British and American survey sheets ("Hazel / Shaw", "Lion / Canyon", "Old / Quarry /
// (disused)"). A linker trained on the classic mix alone never sees a word that cannot end a name: it
// ends phrases after "de", "Rue" or "Place".
#include "light/data/synth/names.h"

namespace light::synth {

namespace {

using Words = std::vector<std::string>;

// One language's words. A name is a generic with a complement ("Rue" + "de la Paix"), or a name with
// a generic after it ("Alster" + "Brücke"); `after` says which the language's generics take.
struct Language {
  Words streets, buildings, waters, lakes, heights;  // generics, abbreviations among them
  Words particles;                                   // before a complement: "de", "del", "di", "do" (English: none)
  Words complements;                                 // names, some with their article: "la Paix", "l'Abbaye"
  Words saints;                                      // "St.", "San", "Santa"
  Words saint_names;
  bool after = false;  // generics after the name ("Alster Brücke"), as German and English set them
};

const std::vector<Language>& languages() {
  static const std::vector<Language> kLanguages{
      {// French
       {"Rue", "R.", "Boulevard", "Bd.", "Avenue", "Av.", "Quai", "Q.", "Place", "Pl.", "Impasse", "Impe.", "Passage", "Cour", "Cr.",
        "Square", "Sq.", "Pont", "Allée", "Carrefour", "Carrefr.", "Chaussée"},
       {"Église", "Eglise", "Chapelle", "Statue", "Stue", "Fontaine", "Hôtel", "Palais", "Théâtre", "Tribunal", "Caserne", "Ministère",
        "Mairie", "Bureau", "École", "Marché", "Gare", "Hôpital", "Halle", "Lycée", "Musée", "Institut", "Collège", "Cimetière"},
       {"Rivière", "Ruisseau", "Canal", "Bras", "Ravin"},
       {"Lac", "Étang", "Bassin"},
       {"Mont", "Col", "Pic", "Puy", "Bois", "Forêt", "Montagne", "Plateau", "Côte"},
       {"de", "du", "des", "de", "de"},
       {"la Paix", "la Cité", "la Concorde", "la Tournelle", "la Bretonnerie", "l'Abbaye", "l'Institut", "l'Opéra", "l'Horloge",
        "l'Échaudé", "Danton", "Condorcet", "Diderot", "Voltaire", "Rivoli", "Bourbon", "Grenelle", "Sèvres", "Vaugirard", "Tournon",
        "Buci", "Gesvres", "Champagny", "Richelieu", "Châtelet", "Temple", "Louvre", "Commerce", "Justice", "Ville", "Nord", "l'Est",
        "Médecine", "Fleurs", "Montmartre", "Belleville", "Boulogne", "Vincennes", "Chaumont", "Grès", "Loup", "Pauvre"},
       {"St.", "Ste.", "Saint", "Sainte", "St", "Notre-Dame"},
       {"Michel", "Louis", "Germain", "Sulpice", "Séverin", "Julien", "André", "Jacques", "Croix", "Geneviève", "Eustache", "Denis"}},
      {// Spanish
       {"Calle", "C.", "Avenida", "Av.", "Plaza", "Pl.", "Paseo", "Camino", "Ronda", "Travesía", "Callejón", "Puente"},
       {"Iglesia", "Convento", "Hospital", "Mercado", "Palacio", "Estación", "Colegio", "Teatro", "Cuartel", "Capilla", "Casa", "Ermita"},
       {"Río", "Arroyo", "Rambla", "Barranco", "Acequia", "Quebrada"},
       {"Laguna", "Lago", "Embalse"},
       {"Sierra", "Cerro", "Pico", "Mesa", "Loma", "Cañada", "Puerto", "Monte"},
       {"de", "del", "de la", "de los", "de las"},
       {"Alcalá", "Toledo", "Segovia", "Atocha", "Merced", "Remedios", "Guadalupe", "Santiago", "Soledad", "Reyes", "Oro", "Viento",
        "Alameda", "Carmen", "Piedad", "Aguas", "Pinos", "Lobos", "Cruz", "Rosario", "Mayor", "Almendros"},
       {"San", "Santa", "Sta.", "Sto.", "Nuestra Señora"},
       {"Juan", "Pedro", "Francisco", "María", "Ana", "Isabel", "Lucía", "Bárbara", "Domingo", "Antonio", "Miguel", "Clara"}},
      {// Italian
       {"Via", "V.", "Piazza", "P.za", "Corso", "Vicolo", "Viale", "Largo", "Ponte", "Borgo", "Salita"},
       {"Chiesa", "Palazzo", "Ospedale", "Stazione", "Teatro", "Mercato", "Caserma", "Convento", "Cappella", "Villa", "Torre"},
       {"Fiume", "Torrente", "Fosso", "Canale", "Rio"},
       {"Lago", "Stagno"},
       {"Monte", "M.", "Passo", "Colle", "Bosco", "Poggio", "Valle", "Cima"},
       {"di", "del", "della", "dei", "degli"},
       {"Spagna", "Trevi", "Garibaldi", "Cavour", "Mazzini", "Medici", "Popolo", "Fiori", "Mercanti", "Angeli", "Sole", "Castello"},
       {"San", "Santa", "S.", "Sant'", "Santo"},
       {"Marco", "Pietro", "Croce", "Maria", "Giovanni", "Lorenzo", "Agnese", "Paolo", "Francesco", "Chiara"}},
      {// Portuguese
       {"Rua", "R.", "Avenida", "Av.", "Praça", "Largo", "Travessa", "Tv.", "Calçada", "Beco", "Ponte"},
       {"Igreja", "Convento", "Hospital", "Mercado", "Palácio", "Estação", "Colégio", "Teatro", "Quartel", "Capela", "Casa"},
       {"Rio", "Ribeirão", "Córrego", "Arroio", "Ribeira"},
       {"Lagoa", "Lago", "Açude"},
       {"Serra", "Morro", "Pico", "Monte", "Chapada"},
       {"do", "da", "dos", "das", "de"},
       {"Ouvidor", "Carmo", "Alfândega", "Rosário", "Conceição", "Glória", "Lapa", "Mouraria", "Sé", "Flores", "Pedras", "Cruz"},
       {"São", "Santa", "S.", "Sto.", "Nossa Senhora"},
       {"Paulo", "Bento", "Jorge", "Vicente", "Luzia", "Bárbara", "Cristóvão", "Roque", "Teresa"}},
      {// German: generics after the name ("Alster Brücke"), or before it with an article ("An der Alster")
       {"Straße", "Str.", "Weg", "Platz", "Pl.", "Allee", "Gasse", "Markt", "Brücke", "Damm", "Wall", "Ufer"},
       {"Kirche", "Rathaus", "Bahnhof", "Schule", "Markthalle", "Krankenhaus", "Kaserne", "Post", "Börse", "Zollamt", "Friedhof",
        "Gymnasium", "Kapelle", "Mühle"},
       {"Bach", "Fluss", "Graben", "Kanal", "Fleet"},
       {"See", "Teich", "Weiher"},
       {"Berg", "Wald", "Höhe", "Forst", "Kopf", "Holz", "Heide"},
       {"Am", "An der", "Unter den", "Auf dem", "Hinter dem", "Beim", "Zum"},
       {"Alster", "Elbe", "Linden", "Michaelis", "Jakobi", "Mönckeberg", "Steinweg", "Burstah", "Königs", "Hafen", "Holsten",
        "Dammtor", "Kirchhof", "Mühlenkamp", "Grindel", "Rotenbaum"},
       {"St.", "Sankt"},
       {"Pauli", "Georg", "Petri", "Nikolai", "Katharinen", "Marien", "Jakobi"},
       true},
      {// English survey sheets: Ordnance Survey and USGS generics, after the name
       {"Lane", "Road", "Rd.", "Street", "Row", "Terrace", "Hill", "Way", "Drive", "Place"},
       {"Farm", "Fm.", "Cottage", "Cott.", "Manor", "Hall", "Grange", "Lodge", "House", "Mill", "School", "Sch.", "Chapel", "Inn",
        "Cemetery", "Mine", "Quarry", "Works", "Barn", "Mission", "Ranch"},
       {"Brook", "Beck", "Burn", "Run", "Branch", "Bayou", "Slough", "Wash", "Creek", "Cr.", "Gill", "Drain"},
       {"Pond", "Tarn", "Reservoir", "Mere", "Loch", "Pool", "Tank"},
       {"Shaw", "Wood", "Copse", "Common", "Plantation", "Moss", "Fell", "Ridge", "Knob", "Gap", "Hollow", "Canyon", "Gulch", "Draw",
        "Mesa", "Butte", "Hill", "Down", "Moor", "Heath", "Cañon"},
       {},
       {"Hazel", "Lion", "Cerrito", "Oak", "Ash", "Holly", "Thorn", "Hawthorn", "Bramble", "Heath", "Lime", "Kiln", "Gravel", "Chalk",
        "Badger", "Rook", "Coldharbour", "Stony", "Long", "Round", "High", "Upper", "Lower", "Nether", "Home", "Church", "Cold Spring",
        "Bear Trap", "Dead Horse", "Rattlesnake", "Sheep", "Juniper", "Piñon", "Alder", "Madrone", "Sulphur", "Poison"},
       {"St.", "Saint"},
       {"Mary's", "John's", "Peter's", "Michael's", "Helen's", "Andrew's"},
       true},
  };
  return kLanguages;
}

Words join(std::initializer_list<Words> parts) {
  Words out;
  for (const Words& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// A complement: a name, a saint's name, or either after a particle ("de la Paix", "du Temple").
Words complement(const Language& l, bool particle, std::mt19937_64& rng) {
  Words name = chance(0.25, rng) ? join({split_words(pick(l.saints, rng)), split_words(pick(l.saint_names, rng))})
                                 : split_words(pick(l.complements, rng));
  if (!particle) return name;
  // A name with its own article takes the plain particle: "de la Paix", "de l'Opéra", never "du l'Opéra".
  const std::string& first = name.front();
  const bool article = first.rfind("l'", 0) == 0 || first == "la" || first == "le" || first == "les";
  return join({split_words(article ? l.particles.front() : pick(l.particles, rng)), name});
}

// `generic` and a complement, in the order the language sets them.
Words named(const Language& l, const Words& generics, std::mt19937_64& rng) {
  const Words g = split_words(pick(generics, rng));
  if (l.after) {
    if (!l.particles.empty() && chance(0.2, rng))
      return join({split_words(pick(l.particles, rng)), split_words(pick(l.complements, rng))});  // "An der Alster"
    return join({complement(l, false, rng), g});
  }
  return join({g, complement(l, chance(0.7, rng), rng)});
}

// Capitals as a sheet sets its larger names, accented Latin letters too ("L'HÔTEL"); "ß" stays, as a
// sheet's capitals never set the capital sharp s (util's to_upper, by Unicode, would).
std::string to_upper_latin(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 'a' && c <= 'z') {
      out += static_cast<char>(c - 'a' + 'A');
    } else if (c == 0xC3 && i + 1 < s.size()) {  // U+00C0-U+00FF: small letters U+00E0-U+00FE (not U+00F7) are 0x20 above
      const unsigned char d = static_cast<unsigned char>(s[i + 1]);
      out += static_cast<char>(c);
      out += static_cast<char>(d >= 0xA0 && d <= 0xBE && d != 0xB7 ? d - 0x20 : d);
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace

Name world_name(NameKind kind, std::mt19937_64& rng) {
  const auto& langs = languages();
  const Language& l = pick(langs, rng);
  Name n;
  n.kind = kind;
  switch (kind) {
    case NameKind::Street: n.words = named(l, l.streets, rng); break;
    case NameKind::Settlement: {
      // A survey sheet's works and abbreviations ("Old Quarry (disused)"), or a saint's building ("St. Pauli Kirche").
      static const Words kWorks{"Old Quarry (disused)", "Lime Kiln (dis.)", "Gravel Pit (dis.)", "Sheepfold", "Chapel (Meth.)",
                                "P.O.", "P.H.", "Well", "Spring", "Sluice"};
      if (l.after && chance(0.15, rng))
        n.words = l.particles.empty() && chance(0.5, rng)
                      ? split_words(pick(kWorks, rng))
                      : join({split_words(pick(l.saints, rng)), split_words(pick(l.saint_names, rng)),
                              split_words(pick(l.buildings, rng))});
      else
        n.words = named(l, l.buildings, rng);
      break;
    }
    case NameKind::River:
    case NameKind::Creek: n.words = named(l, l.waters, rng); break;
    case NameKind::Lake: n.words = named(l, l.lakes, rng); break;
    case NameKind::Mountain: n.words = named(l, l.heights, rng); break;
    default: return n;  // no world form: the classic one is drawn
  }
  if (chance(0.2, rng))
    for (auto& w : n.words) w = to_upper_latin(w);
  return n;
}

}  // namespace light::synth
