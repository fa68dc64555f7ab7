// What the pretraining tests share (light pretrain and light pretrain-poly alike): their options over
// synthetic tiles, and the check that a run killed part way and resumed ends as the run left alone.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "light/error.h"
#include "light/train/trainer.h"
#include "light/util/fs.h"
#include "test_util.h"

namespace light::test {

// Options over the tiles in DIR/d (DIR/d/annotations.json), the "tiny" model on one thread.
template <class Options>
Options tiny_pretraining(const std::string& dir, long max_steps) {
  Options o;
  o.data = dir + "/d/annotations.json";
  o.images = dir + "/d";
  o.config = "tiny";
  o.threads = 1;
  o.max_steps = max_steps;
  return o;
}

// `options` run again in DIR/interrupted, killed after `kill_after` steps, then resumed as `--resume`
// does (`read_options` reads DIR/interrupted/options.json into fresh options; they must say
// `max_steps`): its final model and log must be DIR/straight's (the same options left alone).
template <class Options, class Run, class ReadOptions>
void expect_resumed_run_as_left_alone(const std::string& dir, Options options, long kill_after, long max_steps, Run run,
                                      ReadOptions read_options) {
  options.out_dir = dir + "/interrupted";
  options.on_step = [kill_after](long step) {
    if (step == kill_after) throw Error("killed");
  };
  EXPECT_THROW(run(options), Error);
  Options resumed;
  resumed.threads = 1;
  read_options(dir + "/interrupted", resumed);
  EXPECT_EQ(resumed.max_steps, max_steps);
  run(resumed);
  EXPECT_TRUE(read_file(dir + "/straight/final/model.safetensors") == read_file(dir + "/interrupted/final/model.safetensors"))
      << "the resumed run's weights differ from the uninterrupted run's";
  EXPECT_EQ(strip_seconds(read_file(dir + "/straight/log.jsonl")), strip_seconds(read_file(dir + "/interrupted/log.jsonl")));
}

// `light train --init DIR/straight` on the tiles `pretrained` read, for one epoch at a rate of 0
// (nothing moves: the saved model, DIR/fine/last, shows what was loaded).
template <class Options>
train::TrainOptions fine_tuning_from(const std::string& dir, const Options& pretrained, const std::string& tokenizer_dir) {
  train::TrainOptions t;
  t.train_json = t.val_json = pretrained.data;
  t.train_images = t.val_images = pretrained.images;
  t.tokenizer_dir = tokenizer_dir;
  t.config = "tiny";
  t.init = dir + "/straight";
  t.max_epochs = 1;
  t.lr = 0;
  t.threads = 1;
  t.out_dir = dir + "/fine";
  return t;
}

}  // namespace light::test
