#include "widgets/tree/hidden_state_tree_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontMetrics>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <stdexcept>

#include "engine/analysis/analysis_job.h"
#include "engine/analysis/loaded_model.h"
#include "engine/probing/hidden_state_tree.h"
#include "widgets/analysis/analysis_job_bar.h"
#include "widgets/analysis/model_slot.h"
#include "widgets/checkpoints/checkpoint_chooser.h"
#include "widgets/export/export_bar.h"
#include "widgets/export/figure_export.h"
#include "widgets/run_colours.h"
#include "widgets/tree/spread_plot.h"
#include "widgets/tree/tree_canvas.h"

namespace mrnn::widgets {

namespace {

QString csvField(const QString& text) {
  if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
      !text.contains(QLatin1Char('\n')) && !text.contains(QLatin1Char('\r'))) {
    return text;
  }
  QString quoted = text;
  quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
  return QLatin1Char('"') + quoted + QLatin1Char('"');
}

constexpr int kFigureGap = 24;

// What the job hands back to the GUI thread.
struct Grown {
  engine::TreeResult a;
  std::optional<engine::TreeResult> b;
};

}  // namespace

QColor HiddenStateTreePanel::modelColour(int model) const {
  return modelColours({runIds_[0], runIds_[1]})[model == 0 ? 0 : 1];
}

HiddenStateTreePanel::HiddenStateTreePanel(ProjectDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  slots_[0] = std::make_shared<ModelSlot>();
  slots_[1] = std::make_shared<ModelSlot>();

  modelA_ = new CheckpointChooser(document_, this);
  modelA_->setObjectName(QStringLiteral("treeModelChooser"));
  modelB_ = new CheckpointChooser(document_, this);
  modelB_->setObjectName(QStringLiteral("treeComparisonChooser"));
  modelB_->setOptional(tr("(no comparison)"));
  modelB_->comboBox()->setToolTip(
      tr("A second model that grows its tree from the same context, drawn beside the first"));

  context_ = new QLineEdit(QStringLiteral("The "), this);
  context_->setObjectName(QStringLiteral("treeContextEdit"));
  context_->setPlaceholderText(tr("text the tree grows from"));
  context_->setToolTip(tr("The tree grows from the state after this text (trailing spaces count)"));
  depth_ = new QSpinBox(this);
  depth_->setObjectName(QStringLiteral("treeDepthSpin"));
  depth_->setRange(1, 4);
  depth_->setValue(2);
  depth_->setToolTip(tr("How many symbols ahead the tree grows"));
  branching_ = new QSpinBox(this);
  branching_->setObjectName(QStringLiteral("treeBranchingSpin"));
  branching_->setRange(1, 50);
  branching_->setValue(4);
  branching_->setToolTip(
      tr("Below depth 1: at most this many children per node, the most probable first"));
  firstLevel_ = new QSpinBox(this);
  firstLevel_->setObjectName(QStringLiteral("treeFirstLevelSpin"));
  firstLevel_->setRange(1, 512);
  firstLevel_->setValue(8);
  firstLevel_->setToolTip(
      tr("Depth 1: the most probable this many symbols (raise it to the vocabulary size for "
         "every symbol)"));
  mass_ = new QDoubleSpinBox(this);
  mass_->setObjectName(QStringLiteral("treeMassSpin"));
  mass_->setRange(0.05, 1.0);
  mass_->setSingleStep(0.05);
  mass_->setDecimals(2);
  mass_->setValue(0.9);
  mass_->setToolTip(
      tr("Below depth 1: stop adding children once they hold this much probability "
         "(1.00: no limit, always the top-k)"));
  run_ = new QPushButton(tr("Run"), this);
  run_->setObjectName(QStringLiteral("runTreeButton"));
  run_->setToolTip(tr("Grow the tree(s) of continuations from the context"));
  run_->setDefault(true);
  jobBar_ = new AnalysisJobBar(this);

  auto* inputs = new QGridLayout;
  inputs->addWidget(new QLabel(tr("Model:"), this), 0, 0);
  inputs->addWidget(modelA_, 0, 1, 1, 4);
  inputs->addWidget(new QLabel(tr("Compare with:"), this), 0, 5);
  inputs->addWidget(modelB_, 0, 6, 1, 5);
  inputs->addWidget(new QLabel(tr("Context:"), this), 1, 0);
  inputs->addWidget(context_, 1, 1, 1, 2);
  inputs->addWidget(new QLabel(tr("Depth:"), this), 1, 3, Qt::AlignRight);
  inputs->addWidget(depth_, 1, 4);
  inputs->addWidget(new QLabel(tr("Children (top-k):"), this), 1, 5, Qt::AlignRight);
  inputs->addWidget(branching_, 1, 6);
  inputs->addWidget(new QLabel(tr("Depth 1 cap:"), this), 1, 7, Qt::AlignRight);
  inputs->addWidget(firstLevel_, 1, 8);
  inputs->addWidget(new QLabel(tr("Mass:"), this), 1, 9, Qt::AlignRight);
  inputs->addWidget(mass_, 1, 10);
  inputs->addWidget(run_, 1, 11);
  inputs->setColumnStretch(2, 1);
  inputs->setColumnStretch(6, 0);

  // The trees side by side, each with its model's name above it.
  treeSplitter_ = new QSplitter(Qt::Horizontal, this);
  treeSplitter_->setObjectName(QStringLiteral("treeSplitter"));
  treeSplitter_->setChildrenCollapsible(false);
  for (int model = 0; model < 2; ++model) treeSplitter_->addWidget(makeTreeColumn(model));
  columns_[1]->hide();

  expandAll_ = new QPushButton(tr("Expand all"), this);
  expandAll_->setObjectName(QStringLiteral("expandAllButton"));
  expandAll_->setToolTip(tr("Show every node of the tree(s)"));
  collapseAll_ = new QPushButton(tr("Collapse all"), this);
  collapseAll_->setObjectName(QStringLiteral("collapseAllButton"));
  collapseAll_->setToolTip(tr("Show depth 1 only; click a node to open its subtree"));
  treeExport_ = new ExportBar(
      QStringLiteral("hidden-state-tree"), [this](const QString& path) { saveTreeFigure(path); },
      [this] { return treeCsv(); }, this);
  treeExport_->setObjectName(QStringLiteral("treeExportBar"));
  auto* treeTools = new QHBoxLayout;
  treeTools->addWidget(expandAll_);
  treeTools->addWidget(collapseAll_);
  treeTools->addStretch(1);
  treeTools->addWidget(new QLabel(tr("Trees:"), this));
  treeTools->addWidget(treeExport_);
  auto* treeArea = new QWidget(this);
  auto* treeLayout = new QVBoxLayout(treeArea);
  treeLayout->setContentsMargins(0, 0, 0, 0);
  treeLayout->addWidget(treeSplitter_, 1);
  treeLayout->addLayout(treeTools);

  spread_ = new SpreadPlot(this);
  spreadExport_ = new ExportBar(
      QStringLiteral("hidden-state-spread"),
      [this](const QString& path) { savePlot(path, spread_->plot()); },
      [this] { return QByteArray::fromStdString(engine::treeSpreadCsv(trees_)); }, this);
  spreadExport_->setObjectName(QStringLiteral("spreadExportBar"));
  auto* spreadTitle = new QLabel(
      tr("<b>Spread of the siblings' hidden states per depth</b> (how far one input symbol "
         "moves the state: the width of the tree)"),
      this);
  auto* spreadHeader = new QHBoxLayout;
  spreadHeader->addWidget(spreadTitle, 1);
  spreadHeader->addWidget(new QLabel(tr("Spread:"), this));
  spreadHeader->addWidget(spreadExport_);
  auto* spreadArea = new QWidget(this);
  auto* spreadLayout = new QVBoxLayout(spreadArea);
  spreadLayout->setContentsMargins(0, 0, 0, 0);
  spreadLayout->addLayout(spreadHeader);
  spreadLayout->addWidget(spread_, 1);

  auto* split = new QSplitter(Qt::Vertical, this);
  split->setChildrenCollapsible(false);
  split->addWidget(treeArea);
  split->addWidget(spreadArea);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(inputs);
  layout->addWidget(jobBar_);
  layout->addWidget(split, 1);

  connect(run_, &QPushButton::clicked, this, &HiddenStateTreePanel::runAnalysis);
  connect(context_, &QLineEdit::returnPressed, this, &HiddenStateTreePanel::runAnalysis);
  connect(expandAll_, &QPushButton::clicked, this, &HiddenStateTreePanel::expandAll);
  connect(collapseAll_, &QPushButton::clicked, this, &HiddenStateTreePanel::collapseAll);
  connect(modelA_, &CheckpointChooser::checkpointChanged, this,
          &HiddenStateTreePanel::updateRunnable);
  connect(context_, &QLineEdit::textChanged, this, &HiddenStateTreePanel::updateRunnable);
  connect(jobBar_, &AnalysisJobBar::started, this, &HiddenStateTreePanel::updateRunnable);
  connect(jobBar_, &AnalysisJobBar::finished, this, [this](bool ok) {
    updateRunnable();
    emit analysisFinished(ok);
  });
  treeExport_->setAvailable(false);
  spreadExport_->setAvailable(false);
  expandAll_->setEnabled(false);
  collapseAll_->setEnabled(false);
  updateRunnable();
}

HiddenStateTreePanel::~HiddenStateTreePanel() = default;

QWidget* HiddenStateTreePanel::makeTreeColumn(int model) {
  auto* column = new QWidget(this);
  labels_[model] = new QLabel(column);
  labels_[model]->setObjectName(model == 0 ? QStringLiteral("treeLabelA")
                                           : QStringLiteral("treeLabelB"));
  labels_[model]->setTextFormat(Qt::RichText);
  canvases_[model] = new TreeCanvas(column);
  canvases_[model]->setObjectName(model == 0 ? QStringLiteral("treeCanvasA")
                                             : QStringLiteral("treeCanvasB"));
  canvases_[model]->setColour(modelColour(model));
  canvases_[model]->setToolTip(QString());
  scrolls_[model] = new QScrollArea(column);
  scrolls_[model]->setWidget(canvases_[model]);
  scrolls_[model]->setWidgetResizable(true);
  scrolls_[model]->setMinimumWidth(200);
  auto* layout = new QVBoxLayout(column);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(labels_[model]);
  layout->addWidget(scrolls_[model], 1);
  columns_[model] = column;
  return column;
}

void HiddenStateTreePanel::setContext(const QString& context) {
  context_->setText(context);
}

void HiddenStateTreePanel::setDepth(int depth) {
  depth_->setValue(depth);
}

void HiddenStateTreePanel::setBranching(int children) {
  branching_->setValue(children);
}

void HiddenStateTreePanel::setFirstLevelCap(int children) {
  firstLevel_->setValue(children);
}

void HiddenStateTreePanel::setMass(double mass) {
  mass_->setValue(mass);
}

void HiddenStateTreePanel::setCheckpoint(const QString& path) {
  modelA_->setCheckpoint(path);
}

void HiddenStateTreePanel::setComparisonCheckpoint(const QString& path) {
  if (path.isEmpty()) {
    modelB_->comboBox()->setCurrentIndex(0);  // the "(no comparison)" entry
  } else {
    modelB_->setCheckpoint(path);
  }
}

TreeCanvas* HiddenStateTreePanel::canvas(int model) const {
  return model == 0 || model == 1 ? canvases_[model] : nullptr;
}

QLabel* HiddenStateTreePanel::treeLabel(int model) const {
  return model == 0 || model == 1 ? labels_[model] : nullptr;
}

void HiddenStateTreePanel::refreshCheckpoints() {
  modelA_->refresh();
  modelB_->refresh();
  updateRunnable();
}

void HiddenStateTreePanel::updateRunnable() {
  const bool running = jobBar_->isRunning();
  run_->setEnabled(!running && !modelA_->checkpoint().isEmpty() && !context_->text().isEmpty());
  if (modelA_->checkpoint().isEmpty()) {
    run_->setToolTip(tr("No trained model: train a run or choose a checkpoint file first"));
  } else if (context_->text().isEmpty()) {
    run_->setToolTip(tr("Enter a context for the tree to grow from"));
  } else {
    run_->setToolTip(tr("Grow the tree(s) of continuations from the context"));
  }
}

void HiddenStateTreePanel::runAnalysis() {
  if (jobBar_->isRunning()) return;
  // Everything the job needs is copied here: it must not touch widgets from its thread.
  const std::string paths[2] = {modelA_->checkpoint().toStdString(),
                                modelB_->checkpoint().toStdString()};
  const QString labels[2] = {modelA_->label(), modelB_->label()};
  runIds_[0] = modelA_->runId();
  runIds_[1] = modelB_->runId();
  const QString context = context_->text();
  engine::TreeOptions options;
  options.depth = depth_->value();
  options.topK = branching_->value();
  options.firstLevelCap = firstLevel_->value();
  options.mass = mass_->value();
  const bool compare = !paths[1].empty();
  auto grown = std::make_shared<Grown>();
  auto slotA = slots_[0];
  auto slotB = slots_[1];
  const std::string contextText = context.toStdString();

  auto work = [=, pathA = paths[0], pathB = paths[1]](engine::JobContext& job) {
    const double span = compare ? 0.5 : 1.0;
    const auto grow = [&](ModelSlot& slot, const std::string& path, double offset,
                          const std::string& name) {
      job.report(offset, "loading " + name);
      engine::LoadedModel& loaded = slot.get(path);
      job.report(offset, name + ": depth 1");  // a cancel between loading and growing
      try {
        engine::JobContext part = job.part(offset, offset + span, name);
        return engine::expandTree(*loaded.model, loaded.vocabulary, contextText, options, &part);
      } catch (const std::invalid_argument& error) {
        // Say which model refused (a context symbol may be in one vocabulary only).
        throw std::runtime_error(name + ": " + error.what());
      }
    };
    grown->a = grow(*slotA, pathA, 0.0, "model A");
    if (compare) grown->b = grow(*slotB, pathB, 0.5, "model B");
  };
  auto done = [this, grown, context, labels, paths, compare] {
    std::vector<engine::LabelledTree> trees;
    trees.push_back({labels[0].toStdString(), paths[0], std::move(grown->a)});
    if (compare && grown->b) {
      trees.push_back({labels[1].toStdString(), paths[1], std::move(*grown->b)});
    }
    display(context, std::move(trees));
  };
  jobBar_->run(compare ? tr("Growing the trees") : tr("Growing the tree"), std::move(work),
               std::move(done));
}

void HiddenStateTreePanel::showTrees(const QString& context, const engine::TreeResult& a,
                                     const QString& labelA,
                                     const std::optional<engine::TreeResult>& b,
                                     const QString& labelB) {
  std::vector<engine::LabelledTree> trees;
  trees.push_back({labelA.toStdString(), std::string(), a});
  if (b) trees.push_back({labelB.toStdString(), std::string(), *b});
  display(context, std::move(trees));
}

void HiddenStateTreePanel::display(const QString& context,
                                   std::vector<engine::LabelledTree> trees) {
  shownContext_ = context;
  trees_ = std::move(trees);
  // A model compared with itself (or two runs' same-named checkpoints) must still be told
  // apart in the legend, the table and the CSV.
  if (trees_.size() == 2 && trees_[0].label == trees_[1].label) {
    trees_[1].label += " (comparison)";
  }
  QList<QColor> colours;
  for (int model = 0; model < 2; ++model) {
    const bool shown = model < static_cast<int>(trees_.size());
    columns_[model]->setVisible(shown);
    if (!shown) {
      canvases_[model]->clear();
      labels_[model]->clear();
      continue;
    }
    const engine::LabelledTree& labelled = trees_[static_cast<size_t>(model)];
    canvases_[model]->setColour(modelColour(model));
    canvases_[model]->setTree(context, labelled.tree);
    // A new tree is read from its root: bring it into view, a third of the way down.
    QScrollArea* scroll = scrolls_[model];
    TreeCanvas* canvas = canvases_[model];
    QTimer::singleShot(0, scroll, [scroll, canvas] {
      const QRect root = canvas->rootRect();
      scroll->horizontalScrollBar()->setValue(0);
      scroll->ensureVisible(root.center().x(), root.center().y(), 20,
                            scroll->viewport()->height() / 3);
    });
    const QString label = QString::fromStdString(labelled.label);
    labels_[model]->setText(tr("<span style='color:%1'><b>%2</b></span> &nbsp;%3 nodes")
                                .arg(modelColour(model).name(), label.toHtmlEscaped())
                                .arg(labelled.tree.nodes.size()));
    labels_[model]->setToolTip(QString::fromStdString(labelled.checkpoint));
    colours.append(modelColour(model));
  }
  if (trees_.size() == 2) {
    // A column shown again gets no width of its own from the splitter: share it equally.
    const int half = std::max(1, treeSplitter_->width() / 2);
    treeSplitter_->setSizes({half, half});
  }
  spread_->setTrees(trees_, colours);
  const bool any = !trees_.empty();
  treeExport_->setAvailable(any);
  spreadExport_->setAvailable(any);
  expandAll_->setEnabled(any);
  collapseAll_->setEnabled(any);
}

void HiddenStateTreePanel::expandAll() {
  for (TreeCanvas* canvas : canvases_) canvas->expandAll();
}

void HiddenStateTreePanel::collapseAll() {
  for (TreeCanvas* canvas : canvases_) canvas->collapseAll();
}

QByteArray HiddenStateTreePanel::treeCsv() const {
  QString csv = QStringLiteral("model,index,depth,parent,symbol,probability,cumulative_log_prob\n");
  for (const engine::LabelledTree& labelled : trees_) {
    const QString model = csvField(QString::fromStdString(labelled.label));
    for (size_t i = 0; i < labelled.tree.nodes.size(); ++i) {
      const engine::TreeNode& node = labelled.tree.nodes[i];
      csv += QStringLiteral("%1,%2,%3,%4,%5,%6,%7\n")
                 .arg(model)
                 .arg(i)
                 .arg(node.depth)
                 .arg(node.parent)
                 .arg(csvField(QString::fromStdString(node.text)))
                 .arg(QString::number(node.probability, 'g', QLocale::FloatingPointShortest),
                      QString::number(node.cumulativeLogProb, 'g', QLocale::FloatingPointShortest));
    }
  }
  return csv.toUtf8();
}

void HiddenStateTreePanel::saveTreeFigure(const QString& path) const {
  // Each tree whole, under its model's name: what is scrolled into view does not matter.
  QFont bold = font();
  bold.setBold(true);
  const QFontMetrics metrics(bold);
  const int header = metrics.height() + 8;
  int width = kFigureGap;
  int height = 0;
  const int shown = static_cast<int>(trees_.size());
  for (int model = 0; model < shown; ++model) {
    const QSize content = canvases_[model]->contentSize();
    const QString label = QString::fromStdString(trees_[static_cast<size_t>(model)].label);
    width += std::max(content.width(), metrics.horizontalAdvance(label) + 24) + kFigureGap;
    height = std::max(height, content.height());
  }
  const QSize size(width, header + height + kFigureGap);
  saveFigure(path, size, [&](QPaintDevice& device, const QSize& area) {
    QPainter painter(&device);
    painter.fillRect(QRect(QPoint(0, 0), area), Qt::white);
    int x = kFigureGap;
    for (int model = 0; model < shown; ++model) {
      const QString label = QString::fromStdString(trees_[static_cast<size_t>(model)].label);
      painter.setFont(bold);
      painter.setPen(modelColour(model));
      painter.drawText(QRect(x + 12, 8, area.width() - x, header), Qt::AlignLeft | Qt::AlignTop,
                       label);
      painter.save();
      painter.translate(x, header);
      canvases_[model]->paintTree(painter);
      painter.restore();
      const QSize content = canvases_[model]->contentSize();
      x += std::max(content.width(), metrics.horizontalAdvance(label) + 24) + kFigureGap;
    }
  });
}

}  // namespace mrnn::widgets
