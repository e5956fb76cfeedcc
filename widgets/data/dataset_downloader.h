#pragma once

#include <QFile>
#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

#include "engine/io/written_files.h"
#include "engine/runtime/stop_token.h"
#include "widgets/data/dataset_info.h"

class QNetworkAccessManager;
class QNetworkReply;
class QProcess;

namespace mrnn::widgets {

// Downloads one standard data set into <destination>/<id>/: each file goes to <file>.part
// first, resumes with an HTTP Range request when a .part is there, is checked against its
// published sha256 (streamed, off the GUI thread) and only then renamed into place. Archives
// are unpacked with `unzip` / `tar`, and the files they yield are checked where their
// checksums are known. Cancelling keeps the .part for a later resume. Files already in place
// are verified instead of downloaded again. Only files the downloader wrote itself (its ledger
// in the folder, engine::WrittenFiles) are ever deleted or replaced: a file the user keeps
// there that differs from the published one stops the download, untouched.
class DatasetDownloader : public QObject {
  Q_OBJECT

 public:
  explicit DatasetDownloader(QObject* parent = nullptr);
  ~DatasetDownloader() override;

  // Starts downloading `info` into destinationFolder/info.id. Ignored while a download runs.
  void start(const DatasetInfo& info, const QString& destinationFolder);
  // Stops the transfer (or check, or unpacking); emits cancelled(). The .part stays.
  void cancel();
  bool isRunning() const { return running_; }

  // Where `info` is (or will be) saved under `destinationFolder`.
  static QString folderFor(const DatasetInfo& info, const QString& destinationFolder);
  // After finished(): the files no published checksum covered (shown as "not verified").
  QStringList unverifiedFiles() const { return unverified_; }
  // A transfer that receives nothing for this long fails (default 30 s).
  void setStallTimeout(int milliseconds) { stallTimeoutMs_ = milliseconds; }

 signals:
  // Bytes of the whole data set: received so far (resumed bytes included) and the total
  // (0 while unknown).
  void progress(qint64 received, qint64 total);
  // What is happening, in words ("Downloading text8.zip", "Checking the checksum…").
  void statusChanged(const QString& text);
  void finished(const QString& folder);
  void failed(const QString& reason);
  void cancelled();

 private:
  struct HashResult {
    QString sha256;  // lower-case hex; empty on error or cancel
    QString error;
    bool cancelled = false;
  };

  void nextStep();
  void checkExisting(const QString& finalPath);
  void fetch();
  void onReadyRead();
  void onReplyFinished();
  bool acceptResponse();  // checks the status of a response before its body is written
  void afterTransfer();
  void installDownload();
  void unpack();
  void verifyYielded(int index);
  void hashFile(const QString& path, std::function<void(const HashResult&)> then);
  void fail(const QString& reason);
  void finishCancelled();
  void stop();
  void emitProgress();

  QString partPath() const;
  QString finalPath() const;
  QString currentHost() const;
  QString describeNetworkError(QNetworkReply* reply) const;
  bool allYieldedPresent(const DatasetDownload& download) const;
  // Whether the file at `relative` in the folder is one this downloader wrote, unchanged.
  bool wrote(const QString& relative) const;
  // Records files now in the folder as this downloader's; false (after fail()) when the
  // ledger cannot be saved.
  bool recordWritten(const std::vector<std::string>& relatives);
  // Deletes a file this downloader wrote and forgets it.
  void removeWritten(const QString& relative);
  // The sentence that stops a download at a file the user keeps: `what` says how it differs.
  QString usersFileMessage(const QString& relative, const QString& what) const;

  QNetworkAccessManager* network_;
  QPointer<QNetworkReply> reply_;
  QPointer<QProcess> process_;
  QFutureWatcher<HashResult>* hashWatcher_;
  std::shared_ptr<engine::StopToken> hashCancel_;  // the running check's
  std::function<void(const HashResult&)> afterHash_;

  DatasetInfo info_;
  QString folder_;
  int downloadIndex_ = 0;
  int urlIndex_ = 0;
  QStringList mirrorFailures_;
  QFile part_;
  qint64 offset_ = 0;          // bytes of the current file already in .part
  qint64 received_ = 0;        // bytes of the current file received in this transfer
  qint64 fileTotal_ = 0;       // the current file's size (0 unknown)
  qint64 completedBytes_ = 0;  // bytes of the data set's earlier files
  qint64 plannedTotal_ = 0;
  bool responseChecked_ = false;
  bool responseRejected_ = false;
  bool retriedWithoutRange_ = false;
  bool restartFresh_ = false;  // a 206 for another range: start the file over
  QString writeError_;
  bool running_ = false;
  bool cancelRequested_ = false;
  int stallTimeoutMs_ = 30000;
  QStringList unverified_;
  std::unique_ptr<engine::WrittenFiles> written_;  // the folder's ledger, from start()
};

}  // namespace mrnn::widgets
