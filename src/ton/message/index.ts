// Messages and transactions: layout-preserving codecs (bit-exact round trips of real chain data) and
// the views toncenter v2/v3 report. StateInit, StorageUsed, HASH_UPDATE, AccountStatus and MsgAddress
// have local codecs here (message-shaped needs: raw cells, every address form) that are not exported,
// so they cannot clash with the state/ and address/ folders; their shapes are reachable through the
// types below (e.g. `Message['init']`).
export {
  bodyOpcode,
  encryptedComment,
  formatOpcode,
  type MsgDataV2,
  msgDataV2,
  OP_ENCRYPTED_COMMENT,
  OP_TEXT_COMMENT,
  readSnakeBytes,
  textComment,
  textCommentBytes,
  utf8OrNull,
} from './comment.ts';
export {
  type CommonMsgInfo,
  type CommonMsgInfoRelaxed,
  type ExtInMsgInfo,
  type ExtOutMsgInfo,
  type IntMsgInfo,
  loadCommonMsgInfo,
  loadCommonMsgInfoRelaxed,
  storeCommonMsgInfo,
  storeCommonMsgInfoRelaxed,
} from './common-msg-info.ts';
export {
  loadMessageExact,
  loadMessageRelaxedExact,
  type Message,
  type MessageRelaxed,
  messageFromCell,
  messageHash,
  messageRelaxedFromCell,
  messageToCell,
  storeMessageExact,
  storeMessageRelaxedExact,
} from './message.ts';
export {
  extraCurrencyMap,
  type MessageTexts,
  type MessageView,
  type MessageViewOptions,
  messageTexts,
  messageView,
  normalizedMessageHash,
} from './message-view.ts';
export { msgAddressToAddress, msgAddressToExternal } from './msg-address.ts';
export { loadSplitMergeInfo, type SplitMergeInfo, storeSplitMergeInfo } from './split-merge-info.ts';
export { loadTrActionPhase, storeTrActionPhase, type TrActionPhase } from './tr-action-phase.ts';
export { loadTrBouncePhase, storeTrBouncePhase, type TrBouncePhase } from './tr-bounce-phase.ts';
export {
  type ComputeSkipReason,
  loadTrComputePhase,
  storeTrComputePhase,
  type TrComputePhase,
  type TrComputePhaseSkipped,
  type TrComputePhaseVm,
} from './tr-compute-phase.ts';
export { loadTrCreditPhase, storeTrCreditPhase, type TrCreditPhase } from './tr-credit-phase.ts';
export {
  type AccStatusChange,
  loadTrStoragePhase,
  storeTrStoragePhase,
  type TrStoragePhase,
} from './tr-storage-phase.ts';
export {
  loadTransactionDescr,
  loadTransactionExact,
  storeTransactionDescr,
  storeTransactionExact,
  type Transaction,
  type TransactionDescr,
  type TransMergeInstall,
  type TransMergePrepare,
  type TransOrd,
  type TransSplitInstall,
  type TransSplitPrepare,
  type TransStorage,
  type TransTickTock,
  transactionFromCell,
  transactionHash,
  transactionToCell,
} from './transaction.ts';
export {
  type AccountStatusName,
  type ActionPhaseView,
  type BouncePhaseView,
  type ComputePhaseView,
  type CreditPhaseView,
  type DescriptionView,
  type DescrTypeName,
  type SkipReasonName,
  type SplitInfoView,
  type StatusChangeName,
  type StoragePhaseView,
  type TransactionView,
  type TransactionViewOptions,
  transactionSucceeded,
  transactionView,
} from './transaction-view.ts';
