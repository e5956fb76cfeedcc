#include "widgets/data/dataset_downloader.h"
#include "widgets/native_path.h"

#include <sys/stat.h>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentRun>

#include <cerrno>
#include <filesystem>
#include <system_error>

namespace mrnn::widgets {
namespace {

constexpr qint64 kHashChunk = qint64{1} << 20;

// Whether nothing is at `path`, or a regular file (not a link to one, nor a FIFO or device).
bool plainFileOrNone(const QString& path) {
  struct stat status {};
  if (::lstat(QFile::encodeName(path).constData(), &status) != 0) return errno == ENOENT;
  return S_ISREG(status.st_mode);
}

QString megabytes(qint64 bytes) {
  return QStringLiteral("%1 MB").arg(static_cast<double>(bytes) / 1e6, 0, 'f', 1);
}

// "bytes 100-999/1000" -> 100 and 1000 (-1 where absent or malformed).
void parseContentRange(const QByteArray& header, qint64& start, qint64& total) {
  start = -1;
  total = -1;
  const QByteArray text = header.trimmed();
  if (!text.startsWith("bytes ")) return;
  const int dash = text.indexOf('-');
  const int slash = text.indexOf('/');
  if (dash < 0 || slash < dash) return;
  bool ok = false;
  const qint64 first = text.mid(6, dash - 6).trimmed().toLongLong(&ok);
  if (ok) start = first;
  const qint64 size = text.mid(slash + 1).trimmed().toLongLong(&ok);
  if (ok) total = size;
}

}  // namespace

DatasetDownloader::DatasetDownloader(QObject* parent)
    : QObject(parent),
      network_(new QNetworkAccessManager(this)),
      hashWatcher_(new QFutureWatcher<HashResult>(this)) {
  connect(hashWatcher_, &QFutureWatcher<HashResult>::finished, this, [this] {
    auto then = std::move(afterHash_);
    afterHash_ = nullptr;
    if (cancelRequested_) {
      finishCancelled();
      return;
    }
    if (then) then(hashWatcher_->result());
  });
}

DatasetDownloader::~DatasetDownloader() {
  // Nothing may call back into a half-destroyed object: stop every piece of work first.
  if (hashCancel_) hashCancel_->requestStop();
  hashWatcher_->disconnect(this);
  hashWatcher_->waitForFinished();
  if (reply_) {
    reply_->disconnect(this);
    reply_->abort();
  }
  if (process_) {
    process_->disconnect(this);
    process_->kill();
    process_->waitForFinished(2000);
  }
}

QString DatasetDownloader::folderFor(const DatasetInfo& info, const QString& destinationFolder) {
  return QDir(destinationFolder).filePath(info.id);
}

void DatasetDownloader::start(const DatasetInfo& info, const QString& destinationFolder) {
  if (running_) return;
  info_ = info;
  folder_ = folderFor(info, destinationFolder);
  downloadIndex_ = 0;
  completedBytes_ = 0;
  plannedTotal_ = info.downloadSize();
  unverified_.clear();
  cancelRequested_ = false;
  running_ = true;
  // The work begins from the event loop, so every outcome reaches the caller as a signal after
  // start() has returned, whatever the first step finds.
  QMetaObject::invokeMethod(
      this,
      [this] {
        if (cancelRequested_) {
          finishCancelled();
        } else if (!QDir().mkpath(folder_)) {
          fail(tr("Could not create the folder %1. Choose another destination folder.")
                   .arg(QDir::toNativeSeparators(folder_)));
        } else {
          written_ = std::make_unique<engine::WrittenFiles>(toNativePath(folder_));
          nextStep();
        }
      },
      Qt::QueuedConnection);
}

void DatasetDownloader::cancel() {
  if (!running_) return;
  cancelRequested_ = true;
  if (reply_) {
    reply_->abort();  // onReplyFinished() reports the cancel
  } else if (hashWatcher_->isRunning()) {
    if (hashCancel_) hashCancel_->requestStop();  // the watcher's finished() reports it
  } else if (process_) {
    process_->kill();  // the process's finished() reports it
  }
  // Otherwise the queued first step sees the request and reports it.
}

QString DatasetDownloader::partPath() const {
  return finalPath() + QStringLiteral(".part");
}

QString DatasetDownloader::finalPath() const {
  return QDir(folder_).filePath(info_.downloads.at(downloadIndex_).fileName);
}

QString DatasetDownloader::currentHost() const {
  const DatasetDownload& download = info_.downloads.at(downloadIndex_);
  return QUrl(download.urls.value(urlIndex_)).host();
}

bool DatasetDownloader::allYieldedPresent(const DatasetDownload& download) const {
  // An archive's files are those the data set lists; with several archives, each file's
  // archive cannot be told apart here, so all of them must be present.
  if (download.archive == ArchiveKind::None || info_.files.isEmpty()) return false;
  for (const DatasetFile& file : info_.files)
    if (!QFileInfo::exists(QDir(folder_).filePath(file.path))) return false;
  return true;
}

void DatasetDownloader::nextStep() {
  if (downloadIndex_ >= info_.downloads.size()) {
    emit statusChanged(tr("Checking the files of %1…").arg(info_.name));
    verifyYielded(0);
    return;
  }
  const DatasetDownload& download = info_.downloads.at(downloadIndex_);
  urlIndex_ = 0;
  mirrorFailures_.clear();
  retriedWithoutRange_ = false;
  fileTotal_ = download.size;
  if (download.urls.isEmpty()) {
    fail(tr("%1 has no address to download from.").arg(download.fileName));
    return;
  }
  if (allYieldedPresent(download)) {
    // Unpacked earlier (and the archive removed): the final check verifies the files.
    completedBytes_ += download.size;
    ++downloadIndex_;
    nextStep();
    return;
  }
  if (QFileInfo::exists(finalPath())) {
    checkExisting(finalPath());
    return;
  }
  fetch();
}

void DatasetDownloader::checkExisting(const QString& path) {
  const DatasetDownload& download = info_.downloads.at(downloadIndex_);
  const qint64 size = QFileInfo(path).size();
  if (download.size > 0 && size != download.size) {
    if (!wrote(download.fileName)) {
      fail(usersFileMessage(
          download.fileName,
          tr("has %1 bytes instead of the published %2").arg(size).arg(download.size)));
      return;
    }
    removeWritten(download.fileName);
    fetch();
    return;
  }
  if (download.sha256.isEmpty()) {
    installDownload();
    return;
  }
  emit statusChanged(tr("Checking %1, downloaded earlier…").arg(download.fileName));
  hashFile(path, [this, path](const HashResult& result) {
    const DatasetDownload& current = info_.downloads.at(downloadIndex_);
    if (!result.error.isEmpty()) {
      fail(result.error);
    } else if (result.sha256 == current.sha256) {
      installDownload();
    } else if (!wrote(current.fileName)) {
      fail(usersFileMessage(current.fileName, tr("does not match its published sha256 checksum")));
    } else {
      // A stale or damaged copy of our own: fetch it again.
      removeWritten(current.fileName);
      fetch();
    }
  });
}

void DatasetDownloader::fetch() {
  const DatasetDownload& download = info_.downloads.at(downloadIndex_);
  if (!plainFileOrNone(partPath())) {
    // Opening it would write through a link into another file, or wait on a FIFO.
    fail(usersFileMessage(download.fileName + QStringLiteral(".part"),
                          tr("is not a plain file (a link, folder, device or FIFO)")));
    return;
  }
  part_.setFileName(partPath());
  if (!part_.open(QIODevice::ReadWrite)) {
    fail(tr("Could not write %1: %2.")
             .arg(QDir::toNativeSeparators(partPath()), part_.errorString()));
    return;
  }
  offset_ = part_.size();
  part_.seek(offset_);
  received_ = 0;
  responseChecked_ = false;
  responseRejected_ = false;
  writeError_.clear();
  restartFresh_ = false;

  const QUrl url(download.urls.at(urlIndex_));
  QNetworkRequest request(url);
  request.setHeader(QNetworkRequest::UserAgentHeader,
                    QStringLiteral("mRNN-Workbench/%1 (dataset downloader)")
                        .arg(QCoreApplication::applicationVersion().isEmpty()
                                 ? QStringLiteral("0.1")
                                 : QCoreApplication::applicationVersion()));
  request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                       QNetworkRequest::NoLessSafeRedirectPolicy);
  request.setTransferTimeout(stallTimeoutMs_);
  // A compressed transfer would make byte ranges and sizes mean something else.
  request.setRawHeader("Accept-Encoding", "identity");
  if (offset_ > 0) request.setRawHeader("Range", "bytes=" + QByteArray::number(offset_) + "-");
  emit statusChanged(
      offset_ > 0
          ? tr("Resuming %1 at %2 from %3…").arg(download.fileName, megabytes(offset_), url.host())
          : tr("Downloading %1 from %2…").arg(download.fileName, url.host()));
  reply_ = network_->get(request);
  connect(reply_, &QNetworkReply::readyRead, this, &DatasetDownloader::onReadyRead);
  connect(reply_, &QNetworkReply::finished, this, &DatasetDownloader::onReplyFinished);
  emitProgress();
}

bool DatasetDownloader::acceptResponse() {
  const int status = reply_->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
  if (status == 206) {
    qint64 start = -1;
    qint64 total = -1;
    parseContentRange(reply_->rawHeader("Content-Range"), start, total);
    if (start != offset_) {
      // The server resumed somewhere else: start the file over rather than guess.
      restartFresh_ = true;
      responseRejected_ = true;
      return false;
    }
    if (total > 0) fileTotal_ = total;
    return true;
  }
  if (status == 200) {
    if (offset_ > 0) {
      // The server ignored the Range request and sends the whole file: start over cleanly.
      part_.resize(0);
      part_.seek(0);
      offset_ = 0;
    }
    const qint64 length = reply_->header(QNetworkRequest::ContentLengthHeader).toLongLong();
    if (length > 0) fileTotal_ = length;
    return true;
  }
  // Error statuses (and 416) are reported when the reply finishes; their bodies are dropped.
  responseRejected_ = true;
  return false;
}

void DatasetDownloader::onReadyRead() {
  if (!reply_) return;
  if (!responseChecked_) {
    responseChecked_ = true;
    acceptResponse();
    if (restartFresh_) {
      reply_->abort();
      return;
    }
  }
  const QByteArray data = reply_->readAll();
  if (responseRejected_ || data.isEmpty() || !writeError_.isEmpty()) return;
  if (part_.write(data) != data.size()) {
    writeError_ = part_.errorString();
    reply_->abort();
    return;
  }
  received_ += data.size();
  emitProgress();
}

void DatasetDownloader::onReplyFinished() {
  if (!reply_) return;
  if (reply_->error() == QNetworkReply::NoError) onReadyRead();  // the last bytes, if any
  QNetworkReply* reply = reply_;
  reply_ = nullptr;
  reply->deleteLater();
  part_.flush();
  part_.close();

  if (cancelRequested_) {
    finishCancelled();
    return;
  }
  const DatasetDownload& download = info_.downloads.at(downloadIndex_);
  if (!writeError_.isEmpty()) {
    fail(tr("Could not write %1: %2. The partial download is kept and will resume.")
             .arg(QDir::toNativeSeparators(partPath()), writeError_));
    return;
  }
  const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
  const bool rangeRefused = status == 416 && offset_ > 0;
  if (rangeRefused && fileTotal_ > 0 && offset_ == fileTotal_) {
    afterTransfer();  // the .part already holds the whole file
    return;
  }
  if ((restartFresh_ || rangeRefused) && !retriedWithoutRange_) {
    retriedWithoutRange_ = true;
    QFile::resize(partPath(), 0);
    fetch();
    return;
  }
  if (reply->error() != QNetworkReply::NoError || status >= 400) {
    QString message;
    if (status >= 400) {
      message = tr("The server %1 answered %2 %3 for %4; the data set may have moved.")
                    .arg(reply->url().host())
                    .arg(status)
                    .arg(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString(),
                         download.fileName);
    } else {
      message = describeNetworkError(reply);
    }
    if (urlIndex_ + 1 < download.urls.size()) {
      mirrorFailures_ << message;
      ++urlIndex_;
      fetch();
      return;
    }
    if (!mirrorFailures_.isEmpty())
      message = mirrorFailures_.join(QLatin1Char(' ')) + QLatin1Char(' ') +
                tr("The mirror failed too: %1").arg(message);
    fail(message);
    return;
  }
  afterTransfer();
}

QString DatasetDownloader::describeNetworkError(QNetworkReply* reply) const {
  const QString host = reply->url().host();
  const qint64 kept = QFileInfo(partPath()).size();
  const QString keep =
      kept > 0 ? tr("The partial download is kept and will resume.")
               : tr("Nothing was saved yet; press Download again once the computer is online.");
  const QString detail = reply->errorString();
  switch (reply->error()) {
    case QNetworkReply::ConnectionRefusedError:
    case QNetworkReply::HostNotFoundError:
    case QNetworkReply::TimeoutError:
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
    case QNetworkReply::UnknownNetworkError:
    case QNetworkReply::ProxyConnectionRefusedError:
    case QNetworkReply::ProxyNotFoundError:
    case QNetworkReply::ProxyTimeoutError:
      return tr("Could not reach %1: this computer seems to be offline. %2 (%3)")
          .arg(host, keep, detail);
    case QNetworkReply::RemoteHostClosedError:
    case QNetworkReply::OperationCanceledError:  // the stall timeout, not the user
      return tr("The connection to %1 was lost or stalled. %2 (%3)").arg(host, keep, detail);
    case QNetworkReply::SslHandshakeFailedError:
      return tr("A secure connection to %1 could not be made; check the computer's clock and "
                "certificates. %2 (%3)")
          .arg(host, keep, detail);
    default:
      return tr("Downloading from %1 failed: %2. %3").arg(host, detail, keep);
  }
}

void DatasetDownloader::afterTransfer() {
  const DatasetDownload& download = info_.downloads.at(downloadIndex_);
  const qint64 size = QFileInfo(partPath()).size();
  const qint64 expected = download.size > 0 ? download.size : fileTotal_;
  if (expected > 0 && size < expected) {
    fail(tr("The download of %1 stopped at %2 of %3. The partial download is kept and will "
            "resume.")
             .arg(download.fileName, megabytes(size), megabytes(expected)));
    return;
  }
  if (expected > 0 && size > expected) {
    QFile::remove(partPath());
    fail(tr("%1 came out larger than published (%2 bytes instead of %3); it was deleted. Press "
            "Download to fetch it again.")
             .arg(download.fileName)
             .arg(size)
             .arg(expected));
    return;
  }
  const auto moveIntoPlace = [this] {
    const QString name = info_.downloads.at(downloadIndex_).fileName;
    if ((QFileInfo::exists(finalPath()) || !plainFileOrNone(finalPath())) && !wrote(name)) {
      // Put there during the transfer: it is the user's, and rename() would replace it.
      fail(usersFileMessage(name, tr("appeared during the download")));
      return;
    }
    // rename() replaces the target in one step: the final name never holds a partial file.
    std::error_code error;
    std::filesystem::rename(toNativePath(partPath()), toNativePath(finalPath()), error);
    if (error) {
      fail(tr("Could not rename %1 into place: %2.")
               .arg(QDir::toNativeSeparators(partPath()), QString::fromStdString(error.message())));
      return;
    }
    if (recordWritten({name.toStdString()})) installDownload();
  };
  if (download.sha256.isEmpty()) {
    moveIntoPlace();
    return;
  }
  emit statusChanged(tr("Checking the sha256 checksum of %1…").arg(download.fileName));
  hashFile(partPath(), [this, moveIntoPlace](const HashResult& result) {
    const DatasetDownload& current = info_.downloads.at(downloadIndex_);
    if (!result.error.isEmpty()) {
      fail(result.error);
      return;
    }
    if (result.sha256 != current.sha256) {
      // A damaged download cannot be resumed into a good one: drop it.
      QFile::remove(partPath());
      fail(tr("%1 does not match its published sha256 checksum (expected %2, got %3). The "
              "download was deleted; press Download to fetch it again.")
               .arg(current.fileName, current.sha256, result.sha256));
      return;
    }
    moveIntoPlace();
  });
}

void DatasetDownloader::installDownload() {
  const DatasetDownload& download = info_.downloads.at(downloadIndex_);
  completedBytes_ += QFileInfo(finalPath()).size();
  offset_ = 0;
  received_ = 0;
  emitProgress();
  if (download.archive != ArchiveKind::None) {
    unpack();
    return;
  }
  ++downloadIndex_;
  nextStep();
}

void DatasetDownloader::unpack() {
  const DatasetDownload& download = info_.downloads.at(downloadIndex_);
  const bool zip = download.archive == ArchiveKind::Zip;
  const QString tool = zip ? QStringLiteral("unzip") : QStringLiteral("tar");
  const QString program = QStandardPaths::findExecutable(tool);
  if (program.isEmpty()) {
    fail(tr("Unpacking %1 needs the '%2' program, which is not installed (Debian or Ubuntu: "
            "sudo apt install %2). The downloaded archive is kept; press Download again once "
            "'%2' is installed.")
             .arg(download.fileName, tool));
    return;
  }
  QStringList arguments;
  if (zip) {
    // -n, --skip-old-files: a file already in the folder is never overwritten; the check
    // after unpacking tells whether it is the published one.
    arguments << QStringLiteral("-n") << QStringLiteral("-q") << finalPath() << download.members
              << QStringLiteral("-d") << folder_;
  } else {
    arguments << QStringLiteral("--skip-old-files") << QStringLiteral("-xzf") << finalPath()
              << QStringLiteral("-C") << folder_;
    if (!download.members.isEmpty())
      arguments << QStringLiteral("--wildcards") << QStringLiteral("--wildcards-match-slash")
                << download.members;
  }
  // What the unpack may create: recorded as the downloader's once it has.
  std::vector<std::string> missing;
  for (const DatasetFile& file : info_.files)
    if (!QFileInfo::exists(QDir(folder_).filePath(file.path)))
      missing.push_back(file.path.toStdString());
  emit statusChanged(tr("Unpacking %1…").arg(download.fileName));
  process_ = new QProcess(this);
  process_->setProcessChannelMode(QProcess::MergedChannels);
  connect(process_, &QProcess::finished, this,
          [this, tool, missing](int exitCode, QProcess::ExitStatus exitStatus) {
            QProcess* process = process_;
            process_ = nullptr;
            process->deleteLater();
            if (cancelRequested_) {
              finishCancelled();
              return;
            }
            const DatasetDownload& current = info_.downloads.at(downloadIndex_);
            if (exitStatus != QProcess::NormalExit || exitCode != 0) {
              const QString output = QString::fromLocal8Bit(process->readAll()).trimmed();
              fail(tr("Unpacking %1 failed ('%2' exited with code %3): %4. The archive is kept.")
                       .arg(current.fileName, tool)
                       .arg(exitCode)
                       .arg(output.isEmpty() ? tr("no message") : output.left(400)));
              return;
            }
            if (!recordWritten(missing)) return;
            ++downloadIndex_;
            nextStep();
          });
  connect(process_, &QProcess::errorOccurred, this, [this, tool](QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart || !process_) return;
    process_->deleteLater();
    process_ = nullptr;
    fail(tr("Could not run '%1' to unpack the archive.").arg(tool));
  });
  process_->start(program, arguments);
}

void DatasetDownloader::verifyYielded(int index) {
  if (index >= info_.files.size()) {
    // Every file is in place and checked: the archives have served their purpose.
    // An archive the user had placed there is theirs to keep.
    for (const DatasetDownload& download : info_.downloads)
      if (download.archive != ArchiveKind::None && wrote(download.fileName))
        removeWritten(download.fileName);
    for (const QString& path : info_.unverifiableFiles())
      unverified_ << QDir(folder_).filePath(path);
    running_ = false;
    emit statusChanged(
        unverified_.isEmpty()
            ? tr("%1 is ready; every file matches its published checksum.").arg(info_.name)
            : tr("%1 is ready; not verified: no published checksum covers %2.")
                  .arg(info_.name, info_.unverifiableFiles().join(QStringLiteral(", "))));
    emit finished(folder_);
    return;
  }
  const DatasetFile& file = info_.files.at(index);
  const QString path = QDir(folder_).filePath(file.path);
  const QFileInfo fileInfo(path);
  if (!fileInfo.exists()) {
    fail(tr("%1 is missing after the download; the archive did not contain it.").arg(file.path));
    return;
  }
  const auto rejectFile = [this, relative = file.path](const QString& reason, const QString& what) {
    if (!wrote(relative)) {
      fail(usersFileMessage(relative, what));
      return;
    }
    removeWritten(relative);
    // An archive without a checksum of its own is the likely culprit: fetch it anew next time.
    for (const DatasetDownload& download : info_.downloads)
      if (download.archive != ArchiveKind::None && download.sha256.isEmpty() &&
          wrote(download.fileName))
        removeWritten(download.fileName);
    fail(reason + QLatin1Char(' ') + tr("It was deleted; press Download to fetch it again."));
  };
  if (file.size > 0 && fileInfo.size() != file.size) {
    const QString what =
        tr("has %1 bytes instead of the published %2").arg(fileInfo.size()).arg(file.size);
    rejectFile(file.path + QLatin1Char(' ') + what + QLatin1Char('.'), what);
    return;
  }
  // A plain download with a checksum was checked on arrival; checking it twice costs time.
  bool checkedOnArrival = false;
  for (const DatasetDownload& download : info_.downloads)
    checkedOnArrival =
        checkedOnArrival || (download.archive == ArchiveKind::None &&
                             download.fileName == file.path && download.sha256 == file.sha256);
  if (file.sha256.isEmpty() || checkedOnArrival) {
    verifyYielded(index + 1);
    return;
  }
  emit statusChanged(tr("Checking the sha256 checksum of %1…").arg(file.path));
  hashFile(path, [this, index, rejectFile](const HashResult& result) {
    const DatasetFile& current = info_.files.at(index);
    if (!result.error.isEmpty()) {
      fail(result.error);
    } else if (result.sha256 != current.sha256) {
      rejectFile(tr("%1 does not match its published sha256 checksum (expected %2, got %3).")
                     .arg(current.path, current.sha256, result.sha256),
                 tr("does not match its published sha256 checksum"));
    } else {
      verifyYielded(index + 1);
    }
  });
}

void DatasetDownloader::hashFile(const QString& path, std::function<void(const HashResult&)> then) {
  hashCancel_ = std::make_shared<engine::StopToken>();
  afterHash_ = std::move(then);
  const std::shared_ptr<engine::StopToken> cancel = hashCancel_;
  // Streamed in 1 MB pieces on a worker thread: WikiText-103 is 190 MB.
  hashWatcher_->setFuture(QtConcurrent::run([path, cancel]() {
    HashResult result;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
      result.error = tr("Could not read %1 to check it: %2.")
                         .arg(QDir::toNativeSeparators(path), file.errorString());
      return result;
    }
    QCryptographicHash hash(QCryptographicHash::Sha256);
    while (!file.atEnd()) {
      if (cancel->stopRequested()) {
        result.cancelled = true;
        return result;
      }
      const QByteArray chunk = file.read(kHashChunk);
      if (chunk.isEmpty() && file.error() != QFile::NoError) {
        result.error = tr("Could not read %1 to check it: %2.")
                           .arg(QDir::toNativeSeparators(path), file.errorString());
        return result;
      }
      hash.addData(chunk);
    }
    result.sha256 = QString::fromLatin1(hash.result().toHex());
    return result;
  }));
}

bool DatasetDownloader::wrote(const QString& relative) const {
  return written_ && written_->wrote(relative.toStdString());
}

bool DatasetDownloader::recordWritten(const std::vector<std::string>& relatives) {
  try {
    written_->record(relatives);
    return true;
  } catch (const std::runtime_error& error) {
    // Unrecorded, the files would count as the user's: kept, never deleted. Say so and stop.
    fail(tr("Could not note the downloaded files in %1: %2.")
             .arg(QDir::toNativeSeparators(folder_), QString::fromStdString(error.what())));
    return false;
  }
}

void DatasetDownloader::removeWritten(const QString& relative) {
  QFile::remove(QDir(folder_).filePath(relative));
  try {
    written_->forget(relative.toStdString());
  } catch (const std::runtime_error&) {
    // The ledger keeps a line for a file that is gone: it matches nothing, harmless.
  }
}

QString DatasetDownloader::usersFileMessage(const QString& relative, const QString& what) const {
  return tr("%1 in %2 was not written by the downloader (or was changed since) and %3; it is "
            "left as it is. Move it away, or choose another destination folder.")
      .arg(relative, QDir::toNativeSeparators(folder_), what);
}

void DatasetDownloader::emitProgress() {
  const qint64 received = completedBytes_ + offset_ + received_;
  qint64 total = plannedTotal_;
  if (total <= 0 && fileTotal_ > 0) total = completedBytes_ + fileTotal_;
  emit progress(received, total);
}

void DatasetDownloader::fail(const QString& reason) {
  stop();
  emit statusChanged(reason);
  emit failed(reason);
}

void DatasetDownloader::finishCancelled() {
  if (!running_) return;
  stop();
  emit statusChanged(tr("Cancelled. The partial download is kept; press Download to resume."));
  emit cancelled();
}

void DatasetDownloader::stop() {
  if (part_.isOpen()) {
    part_.flush();
    part_.close();
  }
  running_ = false;
  cancelRequested_ = false;
}

}  // namespace mrnn::widgets
