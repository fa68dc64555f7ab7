#include "light/model/poly_encoder.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <limits>
#include <set>

#include "light/model/dropout.h"


namespace light::model {

BertEmbeddingsImpl::BertEmbeddingsImpl(const PolyEncoderConfig& c) {
  position_embeddings = register_module("position_embeddings", torch::nn::Embedding(c.max_position_embeddings, c.emb_dim));
  token_type_embeddings = register_module("token_type_embeddings", torch::nn::Embedding(c.type_vocab_size, c.emb_dim));
  LayerNorm = register_module("LayerNorm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.emb_dim}).eps(c.bert_layer_norm_eps)));
}

BertEncoderImpl::BertEncoderImpl(const PolyEncoderConfig& c) {
  layer = register_module("layer", torch::nn::ModuleList());
  for (int i = 0; i < c.num_hidden_layers; ++i)
    layer->push_back(TransformerLayer(c.emb_dim, c.num_attention_heads, c.intermediate_size, c.bert_layer_norm_eps,
                                      AttentionStyle::Bert, c.hidden_dropout, c.attention_dropout));
}

BertModelImpl::BertModelImpl(const PolyEncoderConfig& c) {
  embeddings = register_module("embeddings", BertEmbeddings(c));
  encoder = register_module("encoder", BertEncoder(c));
}

PolyEncoderImpl::PolyEncoderImpl(const PolyEncoderConfig& c) : config(c) {
  cls_token = register_parameter("cls_token", torch::zeros({1, 1, c.emb_dim}));
  coord_embedding = register_module("coord_embedding", torch::nn::Linear(torch::nn::LinearOptions(1, c.emb_dim).bias(false)));
  position_embedding = register_module("position_embedding", torch::nn::Embedding(c.num_coords + 1, c.emb_dim));
  encoder = register_module("encoder", BertModel(c));
  norm = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.emb_dim}).eps(c.final_layer_norm_eps)));
}

namespace {

// The first BERT layer's query, key and value without their matrix products. A coordinate token's
// embedding is e = v w + P[p] (v its value, w the scalar embedding's weight, P[p] the sum of the
// position rows and token type 0 for its position p), so after the embedding LayerNorm
//   x = (v / s) g(w - mean w) + (1 / s) g(P[p] - mean P[p]) + beta,   s = sqrt(var(e) + eps),
// a combination of one vector and one per-position vector. Any linear map L of x is therefore
//   L(x) = (v / s) L'(g(w - mean w)) + (1 / s) L'(g(P[p] - mean P[p])) + L(beta)
// (L' without its bias), with the products made once for the C + 1 positions instead of once per
// token: the same values up to float rounding, a quarter of the first layer's matrix work removed.
// The CLS token's embedding is the same for every polygon. Not used where dropout follows the
// embedding LayerNorm (training), which breaks the linearity.
// The LayerNorm's scale s itself needs no [n, H] embedding either: with centred w' = w - mean w and
// P'[p] = P[p] - mean P[p], var(e) = v^2 mean(w'^2) + 2 v mean(w' P'[p]) + mean(P'[p]^2), so that
// x = LayerNorm(e) is the same combination of the table's rows g w', g P'[p] and beta.
struct FirstLayerTables {
  torch::Tensor P;      // [C + 1, H] position rows + token type 0
  torch::Tensor w;      // [H] the scalar coordinate embedding
  torch::Tensor x_cls;  // [H] the CLS token after the embedding LayerNorm
  // [C + 4, 4H]: x (the embedding LayerNorm's output), then query, key and value: rows g w' and
  // L'(g w'); g P'[p] and L'(g P'[p]) for p = 0..C; beta and L(beta); x_cls and L(x_cls). A token's x
  // and projections are a row of coefficients times this table: (v / s, 1 / s at column 1 + p, 1, 0)
  // for a coordinate, (0, ..., 0, 1) for the CLS.
  torch::Tensor table;
  torch::Tensor ww, wp, pp;  // mean(w'^2) [1]; mean(w' P'[p]) and mean(P'[p]^2) [C + 1]
};

FirstLayerTables first_layer_tables(PolyEncoderImpl& m, TransformerLayerImpl& layer) {
  auto& emb = m.encoder->embeddings;
  auto& sa = layer.attention->self;
  const int64_t H = m.config.emb_dim, C1 = m.position_embedding->weight.size(0);
  FirstLayerTables t;
  t.P = m.position_embedding->weight + emb->token_type_embeddings->weight[0] + emb->position_embeddings->weight.slice(0, 0, C1);
  t.w = m.coord_embedding->weight.view({H});
  const torch::Tensor g = emb->LayerNorm->weight, beta = emb->LayerNorm->bias;
  const torch::Tensor W = torch::cat({sa->query->weight, sa->key->weight, sa->value->weight});  // [3H, H]
  const torch::Tensor bias = torch::cat({sa->query->bias, sa->key->bias, sa->value->bias});
  t.x_cls = emb->LayerNorm(m.cls_token.view({H}) + t.P[0]);
  const torch::Tensor wc = t.w - t.w.mean(), Pc = t.P - t.P.mean(-1, /*keepdim=*/true);
  const torch::Tensor rows = torch::cat({(g * wc).unsqueeze(0), g * Pc});
  const torch::Tensor x_rows = torch::cat({rows, beta.unsqueeze(0), t.x_cls.unsqueeze(0)});  // [C + 4, H]
  const torch::Tensor qkv_rows =
      torch::cat({torch::matmul(rows, W.t()), torch::addmv(bias, W, beta).unsqueeze(0), torch::addmv(bias, W, t.x_cls).unsqueeze(0)});
  t.table = torch::cat({x_rows, qkv_rows}, 1);
  t.ww = (wc * wc).mean().view({1});
  t.wp = (Pc * wc).mean(-1);
  t.pp = (Pc * Pc).mean(-1);
  return t;
}

// The last layer for the CLS query alone, without the keys and values of every token. With q the
// CLS query of one head, k_j = Wk x_j + bk and v_j = Wv x_j + bv:
//   q . k_j = (Wk^T q) . x_j + q . bk     (the last term is the same for every j: softmax drops it)
//   sum_j p_j v_j = Wv (sum_j p_j x_j) + bv   (the p_j sum to 1)
// so per polygon two vector-matrix products per head replace the two projections of all 1 + n tokens.
torch::Tensor cls_only_layer(TransformerLayerImpl& layer, const torch::Tensor& x, const torch::Tensor& mask) {
  auto& sa = layer.attention->self;
  const int64_t G = x.size(0), S = x.size(1), h = sa->heads, d = sa->head_dim, H = h * d;
  const torch::Tensor x0 = x.slice(1, 0, 1);                                                   // [G, 1, H]
  const torch::Tensor q = sa->query(x0).view({G, h, d}).transpose(0, 1);                       // [h, G, d]
  const torch::Tensor r = torch::bmm(q, sa->key->weight.view({h, d, H})).transpose(0, 1);      // [G, h, H]
  torch::Tensor scores = torch::matmul(r, x.transpose(1, 2)) / std::sqrt(static_cast<double>(d));  // [G, h, S]
  if (mask.defined()) scores = scores + mask.view({G, 1, S});
  torch::Tensor probs = torch::softmax(scores, -1);
  if (layer.attention_dropout > 0 && layer.is_training()) probs = train_dropout(probs, layer.attention_dropout);
  const torch::Tensor u = torch::matmul(probs, x).transpose(0, 1);                              // [h, G, H]
  const torch::Tensor ctx = torch::bmm(u, sa->value->weight.view({h, d, H}).transpose(1, 2));   // [h, G, d]
  return layer.finish((ctx.transpose(0, 1).reshape({G, H}) + sa->value->bias).view({G, 1, H}), x0);
}

}  // namespace

torch::Tensor PolyEncoderImpl::forward(const torch::Tensor& polygons, torch::Tensor* cls_prenorm) {
  const int64_t P = polygons.size(0), threads = at::get_num_threads();
  constexpr int64_t kMinShare = 16;  // polygons a thread must get for the split to pay
  if (torch::GradMode::is_enabled() || !polygons.device().is_cpu() || threads < 2 || P < 2 * kMinShare || at::in_parallel_region())
    return encode(polygons, cls_prenorm);
  // Each thread encodes a contiguous share with every product on one core: the same values (each
  // polygon's encoding depends on its own values alone) with both cores busy throughout.
  const int64_t shares = std::min(threads, P / kMinShare), per = (P + shares - 1) / shares;
  std::vector<torch::Tensor> outs(static_cast<size_t>(shares)), pres(static_cast<size_t>(shares));
  at::parallel_for(0, shares, 1, [&](int64_t begin, int64_t end) {
    torch::NoGradGuard no_grad;  // grad mode is per thread
    for (int64_t s = begin; s < end; ++s) {
      const torch::Tensor part = polygons.slice(0, s * per, std::min(P, (s + 1) * per));
      outs[static_cast<size_t>(s)] = encode(part, cls_prenorm ? &pres[static_cast<size_t>(s)] : nullptr);
    }
  });
  if (cls_prenorm) *cls_prenorm = torch::cat(pres);
  return torch::cat(outs);
}

torch::Tensor PolyEncoderImpl::encode(const torch::Tensor& polygons, torch::Tensor* cls_prenorm) {
  // Masked coordinates (negative values, the -100 padding included) are never attended by any query,
  // so they cannot affect the CLS output: each polygon runs on the CLS and its valid coordinates only,
  // every token keeping its absolute positions. Polygons are grouped by their number of valid values.
  const int64_t P = polygons.size(0), H = config.emb_dim;
  const torch::Tensor valid = polygons >= 0;
  const torch::Tensor counts = valid.sum(1).to(torch::kCPU).contiguous();
  torch::Tensor out = torch::empty({P, H}, polygons.options());
  torch::Tensor pre = cls_prenorm ? torch::empty({P, H}, polygons.options()) : torch::Tensor();
  auto& emb = encoder->embeddings;
  auto& layers = encoder->encoder->layer;
  const size_t L = layers->size();
  auto layer = [&](size_t i) { return layers[i]->as<TransformerLayerImpl>(); };
  const bool linear_first = L > 0 && !(is_training() && config.hidden_dropout > 0);
  const FirstLayerTables first = linear_first ? first_layer_tables(*this, *layer(0)) : FirstLayerTables{};
  std::set<int64_t> distinct(counts.data_ptr<int64_t>(), counts.data_ptr<int64_t>() + P);
  for (const int64_t n : distinct) {
    const torch::Tensor rows = torch::nonzero(counts.eq(n)).flatten().to(polygons.device());
    const int64_t G = rows.size(0);
    // Positions (1-based: 0 is the CLS) and values of each polygon's valid coordinates.
    const torch::Tensor cols = torch::nonzero(valid.index_select(0, rows)).select(1, 1).view({G, n});
    const torch::Tensor values = polygons.index_select(0, rows).gather(1, cols);
    torch::Tensor x;
    size_t next = 0;  // the first layer still to run
    if (linear_first) {
      // The embedding LayerNorm's 1 / s of each coordinate token, from per-position statistics.
      const torch::Tensor pos = (cols + 1).flatten();
      const torch::Tensor var = values * values * first.ww + 2.0 * values * first.wp.index_select(0, pos).view({G, n}) +
                                first.pp.index_select(0, pos).view({G, n});
      const torch::Tensor inv_s = torch::rsqrt(var + config.bert_layer_norm_eps).unsqueeze(-1);  // [G, n, 1]
      // Coefficients: the CLS row selects the table's last row; a coordinate's row is
      // (v / s, 1 / s at column 1 + p, 1 for L(beta), 0).
      const int64_t K = first.table.size(0);  // C + 4
      torch::Tensor cls_coef = torch::zeros({G, 1, K}, values.options());
      cls_coef.select(2, K - 1).fill_(1.0);
      const torch::Tensor tok_coef = torch::cat({values.unsqueeze(-1) * inv_s,
                                                 torch::zeros({G, n, K - 3}, values.options()).scatter(2, (cols + 1).unsqueeze(-1), inv_s),
                                                 torch::ones({G, n, 1}, values.options()), torch::zeros({G, n, 1}, values.options())},
                                                2);
      const torch::Tensor coef = torch::cat({cls_coef, tok_coef}, 1);  // [G, 1 + n, C + 4]
      const torch::Tensor xqkv = torch::matmul(coef, first.table);  // [G, 1 + n, 4H]
      const auto parts = xqkv.chunk(4, -1);
      x = parts[0];
      if (L == 1)
        x = layer(0)->forward_projected(parts[1].slice(1, 0, 1), parts[2], parts[3], x.slice(1, 0, 1), {}, {});
      else
        x = layer(0)->forward_projected(parts[1], parts[2], parts[3], x, {}, {});
      next = 1;
    } else {
      x = torch::cat({cls_token.expand({G, 1, H}), coord_embedding(values.unsqueeze(-1))}, 1);  // [G, 1+n, H]
      const torch::Tensor positions = torch::cat({torch::zeros({G, 1}, cols.options()), cols + 1}, 1);
      // The module's and BERT's absolute positions and token type 0, then BERT's LayerNorm.
      x = x + position_embedding(positions);
      x = x + emb->token_type_embeddings->weight[0];
      x = x + emb->position_embeddings(positions);
      x = emb->LayerNorm(x);
      if (config.hidden_dropout > 0 && is_training()) x = train_dropout(x, config.hidden_dropout);
    }
    // Only the CLS output is used: the last layer computes the CLS query alone (same values).
    for (size_t i = next; i < L; ++i)
      x = i + 1 == L ? cls_only_layer(*layer(i), x, {}) : layer(i)->forward(x, torch::Tensor(), torch::Tensor());
    const torch::Tensor cls = x.select(1, 0);
    out.index_copy_(0, rows, norm(cls));
    if (cls_prenorm) pre.index_copy_(0, rows, cls);
  }
  if (cls_prenorm) *cls_prenorm = pre;
  return out;
}

torch::Tensor poly_token_states(const torch::Tensor& cls_token, torch::nn::Linear& coord_embedding,
                                torch::nn::Embedding& position_embedding, BertModel& encoder, const torch::Tensor& values,
                                const torch::Tensor& key_valid, double hidden_dropout, bool training) {
  const int64_t P = values.size(0), C = values.size(1), H = cls_token.size(-1);
  torch::Tensor x = torch::cat({cls_token.expand({P, 1, H}), coord_embedding(values.unsqueeze(-1))}, 1);  // [P, 1+C, H]
  const torch::Tensor positions = torch::arange(C + 1, values.options().dtype(torch::kInt64));
  auto& emb = encoder->embeddings;
  x = x + position_embedding(positions) + emb->token_type_embeddings->weight[0] + emb->position_embeddings(positions);
  x = emb->LayerNorm(x);
  if (hidden_dropout > 0 && training) x = train_dropout(x, hidden_dropout);
  const torch::Tensor valid = torch::cat({torch::ones({P, 1}, key_valid.options().dtype(torch::kBool)), key_valid.to(torch::kBool)}, 1);
  const torch::Tensor mask = torch::zeros({P, 1, 1, C + 1}, x.options())
                                 .masked_fill(valid.logical_not().view({P, 1, 1, C + 1}), std::numeric_limits<float>::lowest());
  for (const auto& layer : *encoder->encoder->layer) x = layer->as<TransformerLayerImpl>()->forward(x, torch::Tensor(), mask);
  return x;
}

}  // namespace light::model
