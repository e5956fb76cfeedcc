#include "widgets/masking/masking_panel.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "engine/analysis/analysis_job.h"
#include "engine/analysis/held_out_text.h"
#include "engine/analysis/loaded_model.h"
#include "engine/config/project_file.h"
#include "engine/scoring/feature_masking.h"
#include "engine/scoring/scoring_output.h"
#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "engine/store/text_format.h"
#include "widgets/analysis/analysis_job_bar.h"
#include "widgets/analysis/model_slot.h"
#include "widgets/checkpoints/checkpoint_chooser.h"
#include "widgets/checkpoints/checkpoint_list.h"
#include "widgets/export/export_bar.h"
#include "widgets/export/figure_export.h"
#include "widgets/masking/masking_curve_plot.h"
#include "widgets/native_path.h"
#include "widgets/project/project_document.h"

namespace mrnn::widgets {

namespace {

constexpr double kLn2 = 0.69314718055994530942;

// What the job computes, shared between the engine thread (writes) and onSuccess (reads
// after the job has ended).
struct MaskingJobState {
  // Written by the job as each curve ends, read by the GUI to draw it: under the mutex.
  std::mutex mutex;
  std::vector<engine::MaskingCurve> a;
  std::vector<engine::MaskingCurve> b;
  size_t layersA = 0;
};

// Everything the job needs, read from the controls on the GUI thread before it starts.
struct MaskingJobInputs {
  std::string checkpointA;
  std::string checkpointB;  // empty: no comparison
  int layerChoice = MaskingPanel::EachLayerAndAll;
  double pMax = 0.5;
  double pStep = 0.05;
  int64_t runs = 3;
  int64_t maxSymbols = 20000;
  int textSource = MaskingPanel::ValidationSplit;
  std::string textFile;
  engine::Project dataProject;  // the open project: where the held-out text comes from
};

// The layer selections a model gets: each layer then all at once (a one-layer model's "all"
// curve would repeat its layer 1 exactly, so it is left out), all at once, or one layer.
std::vector<std::optional<size_t>> selectionsFor(int choice, size_t layerCount,
                                                 const std::string& tag) {
  std::vector<std::optional<size_t>> selections;
  if (choice == MaskingPanel::EachLayerAndAll) {
    for (size_t l = 0; l < layerCount; ++l) selections.emplace_back(l);
    if (layerCount != 1) selections.emplace_back(std::nullopt);
  } else if (choice == MaskingPanel::AllLayersAtOnce) {
    selections.emplace_back(std::nullopt);
  } else {
    const auto layer = static_cast<size_t>(choice - MaskingPanel::FirstLayer);
    if (layer >= layerCount) {
      throw std::runtime_error("model " + tag + " has " + std::to_string(layerCount) +
                               (layerCount == 1 ? " layer" : " layers") + ": there is no layer " +
                               std::to_string(layer + 1));
    }
    selections.emplace_back(layer);
  }
  return selections;
}

// The engine's phase "P = 0.100000" as "P = 0.1".
std::string layerText(const std::optional<size_t>& layer) {
  return layer ? "layer " + std::to_string(*layer + 1) : "all layers";
}

engine::CorpusSplit readText(const MaskingJobInputs& in, const engine::Vocabulary& vocabulary) {
  if (in.textSource == MaskingPanel::TextFile) {
    if (in.textFile.empty()) throw std::runtime_error("choose the text file to evaluate on");
    return engine::textFileSplit(in.dataProject, vocabulary, in.textFile);
  }
  return engine::heldOutSplit(in.dataProject, vocabulary,
                              in.textSource == MaskingPanel::TestSplit ? "test" : "valid");
}

QString plural(int n, const char* one, const char* many) {
  return QStringLiteral("%1 %2").arg(n).arg(QString::fromLatin1(n == 1 ? one : many));
}

}  // namespace

MaskingPanel::MaskingPanel(ProjectDocument& document, QWidget* parent)
    : QWidget(parent),
      document_(document),
      slotA_(std::make_shared<ModelSlot>()),
      slotB_(std::make_shared<ModelSlot>()) {
  buildForm();
  jobBar_ = new AnalysisJobBar(this);
  jobBar_->setObjectName(QStringLiteral("maskingJobBar"));
  curves_ = new MaskingCurvePlot(this);
  curves_->setObjectName(QStringLiteral("maskingCurves"));
  export_ = new ExportBar(
      QStringLiteral("masking"), [this](const QString& path) { savePlot(path, curves_->plot()); },
      [this] { return csv(); }, this);
  export_->setObjectName(QStringLiteral("maskingExport"));

  auto* layout = qobject_cast<QVBoxLayout*>(this->layout());
  layout->addWidget(jobBar_);
  layout->addWidget(curves_, 1);
  layout->addWidget(export_);

  connect(run_, &QPushButton::clicked, this, &MaskingPanel::runAnalysis);
  connect(jobBar_, &AnalysisJobBar::started, this, [this] { run_->setEnabled(false); });
  connect(jobBar_, &AnalysisJobBar::progressed, this, [this] {
    if (drawReady_) drawReady_();
  });
  connect(jobBar_, &AnalysisJobBar::finished, this, [this](bool ok) {
    drawReady_ = nullptr;
    run_->setEnabled(true);
    emit analysisFinished(ok);
  });
  connect(chooserA_, &CheckpointChooser::checkpointChanged, this,
          &MaskingPanel::updateLayerChoices);
  connect(&document_, &ProjectDocument::pathChanged, this, &MaskingPanel::updateLayerChoices);
  updateLayerChoices();
  updateEstimate();
}

MaskingPanel::~MaskingPanel() = default;  // the job bar (a child) cancels and joins its job

void MaskingPanel::buildForm() {
  chooserA_ = new CheckpointChooser(document_, this);
  chooserA_->setObjectName(QStringLiteral("maskingCheckpoint"));
  chooserB_ = new CheckpointChooser(document_, this);
  chooserB_->setObjectName(QStringLiteral("maskingComparison"));
  chooserB_->setOptional(tr("No comparison"));
  chooserB_->comboBox()->setToolTip(
      tr("A second model (B, dashed curves) masked the same way on the same text"));

  layers_ = new QComboBox(this);
  layers_->setObjectName(QStringLiteral("maskingLayers"));
  layers_->setToolTip(
      tr("Which output features are masked: each layer alone (one curve each) and then all "
         "layers at once, all layers at once only, or a single layer"));
  pMax_ = new QDoubleSpinBox(this);
  pMax_->setObjectName(QStringLiteral("maskingPMax"));
  pMax_->setRange(0.0, 1.0);
  pMax_->setDecimals(2);
  pMax_->setSingleStep(0.05);
  pMax_->setValue(0.5);
  pMax_->setToolTip(tr("The largest fraction of features zeroed (Shuang et al. go to 0.5)"));
  pStep_ = new QDoubleSpinBox(this);
  pStep_->setObjectName(QStringLiteral("maskingPStep"));
  pStep_->setRange(0.005, 1.0);
  pStep_->setDecimals(3);
  pStep_->setSingleStep(0.05);
  pStep_->setValue(0.05);
  pStep_->setToolTip(tr("The spacing of the P values: 0, step, 2 step, ... up to P max"));
  runs_ = new QSpinBox(this);
  runs_->setObjectName(QStringLiteral("maskingRuns"));
  runs_->setRange(1, 1000);
  runs_->setValue(3);
  runs_->setToolTip(
      tr("Evaluations per P, each with its own random masks (one per window and stream); the "
         "curve shows their mean perplexity, the error bars the standard deviation of their "
         "losses (P = 0 is evaluated once)"));
  maxSymbols_ = new QSpinBox(this);
  maxSymbols_->setObjectName(QStringLiteral("maskingMaxSymbols"));
  maxSymbols_->setRange(0, 1000000000);
  maxSymbols_->setSingleStep(1000);
  maxSymbols_->setGroupSeparatorShown(true);
  maxSymbols_->setSpecialValueText(tr("all"));
  maxSymbols_->setValue(20000);
  maxSymbols_->setToolTip(
      tr("Each evaluation reads the first N symbols of the text (0: all of it); every P and "
         "mask is one evaluation"));
  text_ = new QComboBox(this);
  text_->setObjectName(QStringLiteral("maskingText"));
  text_->addItems({tr("Project validation split"), tr("Project test split"), tr("Text file...")});
  text_->setToolTip(
      tr("The text every evaluation reads: a split of the open project's corpus (it must have "
         "the model's vocabulary) or any text file"));
  textFileLabel_ = new QLabel(this);
  textFileLabel_->setObjectName(QStringLiteral("maskingTextFile"));
  textFileLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  estimate_ = new QLabel(this);
  estimate_->setObjectName(QStringLiteral("maskingEstimate"));
  estimate_->setStyleSheet(QStringLiteral("color: #555;"));
  run_ = new QPushButton(tr("Run"), this);
  run_->setObjectName(QStringLiteral("runMaskingButton"));
  run_->setDefault(true);
  run_->setToolTip(tr("Evaluate the model(s) under the masks on an engine thread"));

  auto* form = new QGridLayout;
  form->addWidget(new QLabel(tr("Model A"), this), 0, 0);
  form->addWidget(chooserA_, 0, 1);
  form->addWidget(new QLabel(tr("Compare with"), this), 0, 2);
  form->addWidget(chooserB_, 0, 3);
  form->setColumnStretch(1, 1);
  form->setColumnStretch(3, 1);

  auto* settings = new QHBoxLayout;
  const auto addField = [&](const QString& label, QWidget* field) {
    auto* caption = new QLabel(label, this);
    caption->setBuddy(field);
    settings->addWidget(caption);
    settings->addWidget(field);
    settings->addSpacing(8);
  };
  addField(tr("&Layers"), layers_);
  addField(tr("P &max"), pMax_);
  addField(tr("P s&tep"), pStep_);
  addField(tr("Ru&ns per P"), runs_);
  addField(tr("Max s&ymbols"), maxSymbols_);
  settings->addStretch(1);

  auto* textRow = new QHBoxLayout;
  auto* textCaption = new QLabel(tr("Te&xt"), this);
  textCaption->setBuddy(text_);
  textRow->addWidget(textCaption);
  textRow->addWidget(text_);
  textRow->addWidget(textFileLabel_, 1);
  textRow->addWidget(estimate_);
  textRow->addWidget(run_);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addLayout(settings);
  layout->addLayout(textRow);

  connect(text_, qOverload<int>(&QComboBox::activated), this, [this](int index) {
    if (index == TextFile) chooseTextFile();
  });
  connect(text_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int index) {
    if (index != TextFile) lastTextSource_ = index;
    textFileLabel_->setText(index == TextFile ? QDir::toNativeSeparators(textFile_) : QString());
  });
  for (auto* spin : {pMax_, pStep_}) {
    connect(spin, qOverload<double>(&QDoubleSpinBox::valueChanged), this,
            &MaskingPanel::updateEstimate);
  }
  for (auto* spin : {runs_, maxSymbols_}) {
    connect(spin, qOverload<int>(&QSpinBox::valueChanged), this, &MaskingPanel::updateEstimate);
  }
}

void MaskingPanel::setCheckpoint(const QString& path) {
  chooserA_->setCheckpoint(path);
}

void MaskingPanel::setComparisonCheckpoint(const QString& path) {
  if (path.isEmpty()) {
    chooserB_->comboBox()->setCurrentIndex(0);  // the "No comparison" entry
  } else {
    chooserB_->setCheckpoint(path);
  }
}

void MaskingPanel::setLayerChoice(int choice) {
  if (choice < 0) return;
  // A layer the current model may not have: listed anyway, the job says if it is missing.
  for (int k = layers_->count(); k <= choice; ++k) {
    layers_->addItem(tr("layer %1").arg(k - FirstLayer + 1));
  }
  layers_->setCurrentIndex(choice);
}

void MaskingPanel::setPMax(double pMax) {
  pMax_->setValue(pMax);
}

void MaskingPanel::setPStep(double pStep) {
  pStep_->setValue(pStep);
}

void MaskingPanel::setRuns(int runs) {
  runs_->setValue(runs);
}

void MaskingPanel::setMaxSymbols(int symbols) {
  maxSymbols_->setValue(symbols);
}

void MaskingPanel::setTextSource(int source) {
  text_->setCurrentIndex(source);
}

void MaskingPanel::setTextFile(const QString& path) {
  textFile_ = path;
  text_->setCurrentIndex(TextFile);
  textFileLabel_->setText(QDir::toNativeSeparators(textFile_));
}

void MaskingPanel::chooseTextFile() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Evaluate on a text file"),
      textFile_.isEmpty() ? document_.folder() : QFileInfo(textFile_).absolutePath(),
      tr("Text (*.txt);;All files (*)"));
  if (!path.isEmpty()) {
    setTextFile(path);
  } else if (textFile_.isEmpty()) {
    text_->setCurrentIndex(lastTextSource_);  // nothing chosen: back to the split used before
  }
}

const std::vector<MaskingSeries>& MaskingPanel::series() const {
  return curves_->series();
}

void MaskingPanel::refreshCheckpoints() {
  chooserA_->refresh();
  chooserB_->refresh();
  updateLayerChoices();
}

int MaskingPanel::knownLayerCount(const QString& checkpoint) const {
  if (checkpoint.isEmpty()) return 0;
  const auto known = loadedLayers_.constFind(checkpoint);
  if (known != loadedLayers_.constEnd()) return known.value();
  // Before the model is loaded: the layers of the run that saved the checkpoint, from the
  // config the run database keeps (reading it is quick; loading the weights is not).
  try {
    for (const auto& entry : listCheckpoints(document_.folder())) {
      if (QFileInfo(entry.path).absoluteFilePath() != QFileInfo(checkpoint).absoluteFilePath()) {
        continue;
      }
      const engine::RunStore store(
          engine::RunPaths::database(toNativePath(QDir(document_.folder()).absolutePath())),
          engine::RunStore::Access::ReadOnly);
      if (const auto run = store.run(entry.runId)) {
        return static_cast<int>(engine::parseProject(run->configYaml).model.layers.size());
      }
    }
  } catch (const std::exception&) {
    // Unreadable database or config: fall through to the open project's guess.
  }
  return static_cast<int>(document_.project().model.layers.size());
}

void MaskingPanel::updateLayerChoices() {
  const int layers = knownLayerCount(chooserA_->checkpoint());
  const int selected = layers_->currentIndex();
  const QSignalBlocker blocker(layers_);
  layers_->clear();
  layers_->addItem(tr("each layer and all"));
  layers_->setItemData(EachLayerAndAll,
                       tr("One curve per layer, then one with every layer masked at once"),
                       Qt::ToolTipRole);
  layers_->addItem(tr("all layers at once"));
  layers_->setItemData(AllLayersAtOnce, tr("Every layer's features masked together"),
                       Qt::ToolTipRole);
  for (int k = 1; k <= layers; ++k) layers_->addItem(tr("layer %1").arg(k));
  setLayerChoice(selected < 0 ? EachLayerAndAll : selected);
}

void MaskingPanel::updateEstimate() {
  const double step = pStep_->value();
  const int levels =
      step > 0.0 ? static_cast<int>(std::floor(pMax_->value() / step + 1e-9)) + 1 : 1;
  const int evaluations = 1 + (levels - 1) * runs_->value();
  // The text's length is known once it is read: until then a bound, not a count.
  const QString symbols =
      maxSymbols_->value() > 0
          ? tr("at most %1 symbols").arg(QLocale(QLocale::English).toString(maxSymbols_->value()))
          : tr("the whole text");
  estimate_->setText(tr("%1 per curve, each over %2")
                         .arg(plural(evaluations, "evaluation", "evaluations"), symbols));
  estimate_->setToolTip(
      tr("%1 values of P; %2 runs each except at P = 0").arg(levels).arg(runs_->value()));
}

void MaskingPanel::runAnalysis() {
  if (jobBar_->isRunning()) return;
  auto inputs = std::make_shared<MaskingJobInputs>();
  inputs->checkpointA = toNativePath(chooserA_->checkpoint());
  inputs->checkpointB = toNativePath(chooserB_->checkpoint());
  inputs->layerChoice = layers_->currentIndex();
  inputs->pMax = pMax_->value();
  inputs->pStep = pStep_->value();
  inputs->runs = runs_->value();
  inputs->maxSymbols = maxSymbols_->value();
  inputs->textSource = text_->currentIndex();
  inputs->textFile = toNativePath(textFile_);
  inputs->dataProject = document_.project();
  const QString labelA = chooserA_->label();
  const QString labelB = inputs->checkpointB.empty() ? QString() : chooserB_->label();
  const QString checkpointA = chooserA_->checkpoint();
  auto state = std::make_shared<MaskingJobState>();

  auto work = [inputs, state, slotA = slotA_, slotB = slotB_](engine::JobContext& job) {
    struct Role {
      ModelSlot* slot;
      std::string checkpoint;
      std::string tag;
      std::vector<engine::MaskingCurve>* curves;
    };
    std::vector<Role> roles{{slotA.get(), inputs->checkpointA, "A", &state->a}};
    if (!inputs->checkpointB.empty()) {
      roles.push_back({slotB.get(), inputs->checkpointB, "B", &state->b});
    }
    job.report(0.0, "loading the model");
    std::vector<engine::LoadedModel*> models;
    for (const auto& role : roles) {
      models.push_back(&role.slot->get(role.checkpoint));
      job.report(0.0, "reading the text");
    }
    state->layersA = models.front()->layerCount();
    // The text once per vocabulary: two models trained on the same corpus share it.
    std::vector<engine::CorpusSplit> splits;
    std::vector<size_t> splitOf;  // per model, its text in `splits`
    for (size_t m = 0; m < models.size(); ++m) {
      if (m > 0 && models[m]->vocabulary.fingerprint() == models[0]->vocabulary.fingerprint()) {
        splitOf.push_back(0);
      } else {
        splitOf.push_back(splits.size());
        splits.push_back(readText(*inputs, models[m]->vocabulary));
      }
      job.report(0.0, "reading the text");
    }
    engine::maskingLevels(inputs->pMax, inputs->pStep);  // bad P settings fail before any work
    std::vector<std::vector<std::optional<size_t>>> selections;
    size_t total = 0;
    for (size_t m = 0; m < models.size(); ++m) {
      selections.push_back(
          selectionsFor(inputs->layerChoice, models[m]->layerCount(), roles[m].tag));
      total += selections.back().size();
    }
    size_t done = 0;
    for (size_t m = 0; m < models.size(); ++m) {
      engine::LoadedModel& loaded = *models[m];
      engine::MaskingOptions options;
      options.pMax = inputs->pMax;
      options.pStep = inputs->pStep;
      options.runs = inputs->runs;
      options.eval.batch = loaded.project.evaluation.batchSize;
      options.eval.bptt = loaded.project.evaluation.bptt;
      options.eval.maxSymbols = inputs->maxSymbols;
      for (const auto& selection : selections[m]) {
        options.layer = selection;
        std::string name = roles[m].tag + " · " + layerText(selection);
        if (total > 1) {
          name += " (curve " + std::to_string(done + 1) + " of " + std::to_string(total) + ")";
        }
        engine::JobContext part =
            job.part(static_cast<double>(done) / static_cast<double>(total),
                     static_cast<double>(done + 1) / static_cast<double>(total), name);
        part.report(0.0);  // names the curve; stops here when the job was cancelled before
        engine::MaskingCurve curve =
            engine::featureMasking(*loaded.model, splits[splitOf[m]], options, &part);
        {
          const std::lock_guard<std::mutex> lock(state->mutex);
          roles[m].curves->push_back(std::move(curve));
        }
        ++done;
        part.report(1.0);  // the GUI draws the curve now, not when every curve is done
      }
    }
  };
  // Each curve is drawn as it ends.
  drawReady_ = [this, state, labelA, labelB] {
    std::vector<engine::MaskingCurve> a, b;
    {
      const std::lock_guard<std::mutex> lock(state->mutex);
      if (state->a.size() + state->b.size() == drawnCurves_) return;
      a = state->a;
      b = state->b;
    }
    drawnCurves_ = a.size() + b.size();
    showCurves(a, labelA, b, labelB);
  };
  drawnCurves_ = 0;
  auto onSuccess = [this, state, labelA, labelB, checkpointA] {
    drawReady_ = nullptr;
    loadedLayers_[checkpointA] = static_cast<int>(state->layersA);
    if (chooserA_->checkpoint() == checkpointA) updateLayerChoices();
    showCurves(state->a, labelA, state->b, labelB);
  };
  jobBar_->run(tr("Masking features"), std::move(work), std::move(onSuccess));
}

void MaskingPanel::showCurves(const std::vector<engine::MaskingCurve>& a, const QString& labelA,
                              const std::vector<engine::MaskingCurve>& b, const QString& labelB) {
  std::vector<MaskingSeries> series;
  const auto add = [&series](const std::vector<engine::MaskingCurve>& curves, int model) {
    for (const auto& curve : curves) {
      MaskingSeries s;
      s.model = model;
      s.layer = curve.layer;
      s.p = curve.p;
      s.meanNats = curve.meanLoss;
      s.stdNats = curve.stdLoss;
      s.meanPerplexity = curve.meanPerplexity;
      s.stdPerplexity = curve.stdPerplexity;
      s.runs = curve.runs;
      series.push_back(std::move(s));
    }
  };
  add(a, 0);
  add(b, 1);
  labelA_ = labelA.isEmpty() ? tr("model A") : labelA;
  labelB_ = b.empty() ? QString() : (labelB.isEmpty() ? tr("model B") : labelB);
  const QString caption = b.empty() ? tr("A: %1").arg(labelA_)
                                    : tr("A (solid): %1     B (dashed): %2").arg(labelA_, labelB_);
  curves_->setSeries(series, caption);
  export_->setAvailable(!series.empty());
  if (!a.empty() && a.front().symbols > 0) {
    // What was read, now that it is known.
    estimate_->setText(
        tr("%1 evaluations per curve, each over %2 symbols")
            .arg(1 + static_cast<int>(a.front().p.size() - 1) * static_cast<int>(a.front().runs))
            .arg(QLocale(QLocale::English).toString(static_cast<qlonglong>(a.front().symbols))));
  }
}

QByteArray MaskingPanel::csv() const {
  const auto& shown = curves_->series();
  std::ostringstream out;
  out.imbue(std::locale::classic());
  const bool comparing =
      std::any_of(shown.begin(), shown.end(), [](const MaskingSeries& s) { return s.model == 1; });
  if (!comparing) {
    // One model: exactly what `mrnn analyze mask --csv` writes.
    std::vector<engine::MaskingCurve> curves;
    for (const auto& s : shown) {
      engine::MaskingCurve curve;
      curve.layer = s.layer;
      curve.p = s.p;
      curve.meanLoss = s.meanNats;
      curve.stdLoss = s.stdNats;
      curve.meanPerplexity = s.meanPerplexity;
      curve.stdPerplexity = s.stdPerplexity;
      curve.runs = s.runs;
      curves.push_back(std::move(curve));
    }
    engine::writeMaskingCsv(out, curves);
    return QByteArray::fromStdString(out.str());
  }
  out << std::setprecision(10) << "model,layer,p,mean_nats,std_nats,mean_bits,runs\n";
  for (const auto& s : shown) {
    const std::string model = engine::csvField((s.model == 0 ? labelA_ : labelB_).toStdString());
    const std::string layer = s.layer ? std::to_string(*s.layer + 1) : "all";
    for (size_t i = 0; i < s.p.size(); ++i) {
      out << model << "," << layer << "," << s.p[i] << "," << s.meanNats[i] << "," << s.stdNats[i]
          << "," << s.meanNats[i] / kLn2 << "," << (s.p[i] == 0.0 ? 1 : s.runs) << "\n";
    }
  }
  return QByteArray::fromStdString(out.str());
}

}  // namespace mrnn::widgets
