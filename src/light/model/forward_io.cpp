#include "light/model/forward_io.h"

#include <torch/torch.h>

#include "light/io/safetensors.h"
#include "light/model/checkpoint.h"
#include "light/model/light.h"
#include "light/model/runtime.h"
#include "light/util/error.h"

namespace light::model {

namespace {
torch::Tensor view(const io::SafeTensorsFile& f, const std::string& name) {
  const auto& v = f.at(name);
  const auto t = v.dtype == io::DType::I64 ? torch::kInt64 : v.dtype == io::DType::F32 ? torch::kFloat32 : torch::kFloat32;
  if (v.dtype != io::DType::I64 && v.dtype != io::DType::F32)
    throw Error(f.path() + ": tensor \"" + name + "\": expected I64 or F32");
  return torch::from_blob(const_cast<unsigned char*>(v.data), std::vector<int64_t>(v.shape.begin(), v.shape.end()), t);
}

io::Tensor to_io(const torch::Tensor& t) {
  const torch::Tensor c = t.detach().to(torch::kCPU).to(torch::kFloat32).contiguous();
  std::vector<float> values(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
  std::vector<int64_t> shape(c.sizes().begin(), c.sizes().end());
  if (shape.empty()) shape = {1};
  return io::Tensor::f32(shape, values);
}
}  // namespace

size_t run_forward(const std::string& model_dir, const std::string& inputs_path, const std::string& out_path,
                   const ForwardOptions& opt) {
  set_threads(opt.threads);
  torch::NoGradGuard no_grad;
  const torch::Device dev = pick_device(opt.device);
  LightTextLinking model = load_model(model_dir);
  model->to(dev);
  const io::SafeTensorsFile in(inputs_path);
  std::vector<std::string> tiles;
  const std::string suffix = ".input_ids";
  for (const auto& kv : in.tensors())
    if (kv.first.size() > suffix.size() && kv.first.compare(kv.first.size() - suffix.size(), suffix.size(), suffix) == 0)
      tiles.push_back(kv.first.substr(0, kv.first.size() - suffix.size()));
  if (tiles.empty()) throw Error(inputs_path + ": no \"<tile>.input_ids\" tensors");
  std::map<std::string, io::Tensor> out;
  for (const auto& t : tiles) {
    const std::string p = t + ".";
    const torch::Tensor mask = view(in, p + "attention_mask");
    const int64_t T = mask.sum().item<int64_t>();
    Batch b;
    b.input_ids = view(in, p + "input_ids").slice(0, 0, T).unsqueeze(0);
    b.bbox = view(in, p + "bbox").slice(0, 0, T).unsqueeze(0);
    b.attention_mask = mask.slice(0, 0, T).unsqueeze(0);
    b.polygons = view(in, p + "polygons").slice(0, 0, T).unsqueeze(0);
    b.pixel_values = view(in, p + "pixel_values").unsqueeze(0);
    const torch::Tensor first = view(in, p + "first_token_indices");
    const torch::Tensor valid = first.index_select(0, torch::nonzero(first.ne(-999)).flatten());
    b.first_token_indices.push_back(valid.to(dev));
    b.word_labels.push_back(view(in, p + "labels").index_select(0, valid));
    for (torch::Tensor* x : {&b.input_ids, &b.bbox, &b.attention_mask, &b.polygons, &b.pixel_values}) *x = x->to(dev);
    const Outputs o = model->forward(b);
    const TileOutputs& r = o.tiles[0];
    out[p + "text_embeddings"] = to_io(o.text_embeddings[0]);
    out[p + "poly_embeddings"] = to_io(o.poly_embeddings[0]);
    out[p + "fused_embeddings"] = to_io(o.fused_embeddings[0]);
    out[p + "visual_embeddings"] = to_io(o.visual_embeddings[0]);
    out[p + "final_hidden_text"] = to_io(o.final_hidden_text[0]);
    out[p + "first_token_hidden"] = to_io(r.first_token_hidden);
    out[p + "word_embeddings"] = to_io(r.word_embeddings);
    out[p + "logits"] = to_io(r.logits);
    out[p + "bi_logits"] = to_io(r.bi_logits);
    out[p + "probs"] = to_io(r.probs);
    out[p + "bi_probs"] = to_io(r.bi_probs);
    if (r.base_loss.defined()) {
      out[p + "base_loss"] = to_io(r.base_loss);
      out[p + "bidirection_loss"] = to_io(r.bidirection_loss);
      out[p + "focal_loss"] = to_io(r.focal_loss);
    }
  }
  io::write_safetensors(out_path, out, {{"format", "light-forward"}});
  return tiles.size();
}

}  // namespace light::model
