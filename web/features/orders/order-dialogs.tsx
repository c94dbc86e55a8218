import type { Dispatch, SetStateAction } from 'react';
import type { Order, OrderDetail } from '#contract/orders';
import type { PendingReview } from '#contract/reviews';
import { api } from '../../lib/api.ts';
import { ConfirmDialog, Modal } from '../../components/ui/dialog.tsx';
import { FileUploader } from '../../components/ui/file-uploader.tsx';
import { ReviewForm } from '../reviews/index.ts';
import { DisputeForm } from '../disputes/index.ts';
import { canOpenDispute, type CardDialog } from './card-steps.ts';
import { cancelNote, reviewTargetName } from './order-facts.ts';
import { stepWords } from './stage-facts.ts';

// The order card's dialogs: each step that asks something first (a message, a reason, a confirmation, a review,
// a dispute) before it is sent. The order is the card's, or one of its stages (ADR 065): the same steps, said of a stage.

/** A step's request: the order as it is after it, or the error. */
export type StepRequest = () => Promise<{ data?: { result: OrderDetail }; error?: { message: string } }>;

/** The text and files a dialog is filling in, kept by the card (a dialog opens empty). */
export interface DialogDraft {
  text: string;
  setText: (t: string) => void;
  files: string[];
  setFiles: Dispatch<SetStateAction<string[]>>;
  uploading: boolean;
  setUploading: (busy: boolean) => void;
}

export function OrderDialogs(props: {
  order: Order;
  dialog: CardDialog | null;
  busy: boolean;
  draft: DialogDraft;
  pendingReview: PendingReview | null;
  close: () => void;
  run: (step: StepRequest, done: string) => void;
  onReviewed: () => void;
  onDisputed: () => void;
}) {
  const { order, dialog, busy, draft, close, run } = props;
  const params = { id: order._id };
  const { text } = draft;
  const texts = { busy, text, setText: draft.setText, onClose: close };
  const words = stepWords(order);
  return (
    <>
      {props.pendingReview && (
        <Modal open={dialog === 'review'} title={`Отзыв по заказу №${order.number}`} onClose={close}>
          <ReviewForm orderId={order._id} role={props.pendingReview.role} targetName={reviewTargetName(props.pendingReview)} onDone={props.onReviewed} />
        </Modal>
      )}
      {canOpenDispute(order) && order.role && (
        <Modal open={dialog === 'dispute'} title={words.dispute} onClose={close}>
          <DisputeForm orderId={order._id} role={order.role} onCancel={close} onDone={props.onDisputed} />
        </Modal>
      )}
      <DeliverDialog
        title={words.deliver}
        open={dialog === 'deliver'}
        busy={busy}
        draft={draft}
        onClose={close}
        onSubmit={() => run(() => api.write('orders.deliver', { params, body: { message: text, files: draft.files } }), words.delivered)}
      />
      <TextDialog
        {...texts}
        open={dialog === 'revision'}
        title="Запросить доработку"
        label="Что нужно доработать"
        required
        submit="Отправить на доработку"
        onSubmit={() => run(() => api.write('orders.revision', { params, body: { message: text } }), words.revised)}
      />
      <TextDialog
        {...texts}
        open={dialog === 'cancel'}
        title={words.cancelTitle}
        note={words.dropNote ?? cancelNote(order)}
        label="Причина (необязательно)"
        submit={words.cancel}
        danger
        onSubmit={() => run(() => api.write('orders.cancel', { params, body: { reason: text || null } }), words.cancelled)}
      />
      <TextDialog
        {...texts}
        open={dialog === 'propose'}
        title="Предложить отмену"
        label="Причина"
        required
        submit="Предложить"
        onSubmit={() => run(() => api.write('orders.proposeCancel', { params, body: { reason: text } }), 'Предложение отправлено')}
      />
      <ConfirmDialog
        open={dialog === 'accept'}
        title={words.acceptTitle}
        text={words.acceptText}
        confirmLabel="Принять"
        busy={busy}
        onConfirm={() => run(() => api.write('orders.accept', { params }), words.accepted)}
        onClose={close}
      />
    </>
  );
}

/** The seller's delivery: a message to the customer and up to 10 result files. */
export function DeliverDialog(props: { title?: string; open: boolean; busy: boolean; draft: DialogDraft; onClose: () => void; onSubmit: () => void }) {
  const { draft } = props;
  const title = props.title ?? 'Сдать работу';
  return (
    <Modal open={props.open} title={title} onClose={props.onClose}>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          props.onSubmit();
        }}
      >
        <label className="field">
          <span className="field__label">Сообщение заказчику</span>
          <textarea className="input input--area" required maxLength={5000} value={draft.text} onChange={(e) => draft.setText(e.target.value)} />
        </label>
        <FileUploader
          mode="files"
          label="Файлы результата"
          hint="До 10 файлов"
          value={draft.files}
          onChange={(update) => draft.setFiles(update)}
          max={10}
          onBusyChange={draft.setUploading}
        />
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={props.onClose}>
            Отмена
          </button>
          <button type="submit" className="btn btn--primary" disabled={props.busy || draft.uploading || !draft.text.trim()}>
            {title}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function TextDialog(props: {
  open: boolean;
  title: string;
  /** A sentence above the field: what the step does. */
  note?: string;
  label: string;
  submit: string;
  required?: boolean;
  danger?: boolean;
  busy: boolean;
  text: string;
  setText: (t: string) => void;
  onClose: () => void;
  onSubmit: () => void;
}) {
  return (
    <Modal open={props.open} title={props.title} onClose={props.onClose}>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          props.onSubmit();
        }}
      >
        {props.note && <p className="muted">{props.note}</p>}
        <label className="field">
          <span className="field__label">{props.label}</span>
          <textarea
            className="input input--area"
            required={props.required}
            maxLength={props.required ? 5000 : 1000}
            value={props.text}
            onChange={(e) => props.setText(e.target.value)}
          />
        </label>
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={props.onClose}>
            Назад
          </button>
          <button type="submit" className={`btn ${props.danger ? 'btn--danger' : 'btn--primary'}`} disabled={props.busy || (props.required && !props.text.trim())}>
            {props.submit}
          </button>
        </div>
      </form>
    </Modal>
  );
}
