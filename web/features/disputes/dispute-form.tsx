import { useId, useState, type FormEvent } from 'react';
import type { ApiError } from '#contract/api';
import type { CreateDisputeInput, Dispute } from '#contract/disputes';
import {
  DISPUTE_MAX_DESCRIPTION,
  DISPUTE_MAX_FILES,
  DISPUTE_MIN_DESCRIPTION,
  DISPUTE_REASON_LABELS,
  DISPUTE_REASONS_BY_SIDE,
  type DisputeReason,
} from '#contract/dispute-constants';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { FileUploader } from '../../components/ui/file-uploader.tsx';
import { disputeFieldErrors, type DisputeField } from './rules.ts';

// The dispute form (SPEC §7 POST /api/disputes/: order, reason, description, files). Each side is offered the
// reasons of its side (ADR 039). The server's field errors are shown by their fields, anything else above the
// buttons.

/**
 * POST /api/disputes/: the one change whose errors SPEC §7 has rethrown rather than returned (api.write returns
 * them): the new dispute, or the server's ApiError thrown to the caller.
 */
export async function openDispute(body: CreateDisputeInput): Promise<Dispute> {
  const { data, error } = await api.write('disputes.create', { body });
  if (error) throw error;
  return data.result;
}

export function DisputeForm({
  orderId,
  role,
  onDone,
  onCancel,
}: {
  orderId: string;
  role: 'customer' | 'seller';
  onDone: (dispute: Dispute) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [reason, setReason] = useState<DisputeReason | ''>('');
  const [description, setDescription] = useState('');
  const [files, setFiles] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<DisputeField, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    let dispute: Dispute;
    try {
      dispute = await openDispute({ order_id: orderId, reason: reason as DisputeReason, description, files });
    } catch (err) {
      const error = err as ApiError;
      const byField = disputeFieldErrors(error);
      setErrors(byField);
      if (Object.keys(byField).length === 0) setProblem(error.message);
      return;
    } finally {
      setBusy(false);
    }
    toast('Спор открыт. Арбитраж рассмотрит его, переписка — в разделе «Споры»', { type: 'success' });
    onDone(dispute);
  }

  return (
    <form className="form dispute-form" onSubmit={(e) => void submit(e)} noValidate data-testid="dispute-form">
      <p className="muted">Заказ будет остановлен до решения арбитража. Опишите, что произошло, и приложите подтверждения.</p>
      <label className="field">
        <span className="field__label">Причина</span>
        <select
          className="input"
          name="reason"
          value={reason}
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={errors.reason ? `${id}-reason` : undefined}
          onChange={(e) => setReason(e.target.value as DisputeReason)}
        >
          <option value="">Выберите причину</option>
          {DISPUTE_REASONS_BY_SIDE[role].map((r) => (
            <option key={r} value={r}>
              {DISPUTE_REASON_LABELS[r]}
            </option>
          ))}
        </select>
        {errors.reason && (
          <span className="field__error" id={`${id}-reason`} role="alert">
            {errors.reason}
          </span>
        )}
      </label>
      <label className="field">
        <span className="field__label">Описание</span>
        <textarea
          className="input input--area"
          name="description"
          maxLength={DISPUTE_MAX_DESCRIPTION}
          value={description}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? `${id}-description` : undefined}
          placeholder={`Не короче ${DISPUTE_MIN_DESCRIPTION} символов: что было согласовано и что пошло не так`}
          onChange={(e) => setDescription(e.target.value)}
        />
        {errors.description && (
          <span className="field__error" id={`${id}-description`} role="alert">
            {errors.description}
          </span>
        )}
      </label>
      <FileUploader
        mode="files"
        label="Файлы (необязательно)"
        hint={`До ${DISPUTE_MAX_FILES} файлов`}
        value={files}
        onChange={(update) => setFiles(update)}
        max={DISPUTE_MAX_FILES}
        error={errors.files}
        onBusyChange={setUploading}
      />
      {problem && (
        <p className="field__error" role="alert">
          {problem}
        </p>
      )}
      <div className="modal__actions">
        <button type="button" className="btn btn--ghost" onClick={onCancel}>
          Назад
        </button>
        <button type="submit" className="btn btn--danger" disabled={busy || uploading}>
          Открыть спор
        </button>
      </div>
    </form>
  );
}
