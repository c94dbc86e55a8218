import { useState, type FormEvent } from 'react';
import type { AdminRouteRule, RouteRuleKind } from '#contract/admin';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { FormError, SelectField, TextField } from '../../components/ui/form.tsx';
import { EMPTY_RULE, ruleBody, ruleDraft, type RuleDraft, ruleErrors, RULE_KIND_LABELS } from './route-rule-draft.ts';
import { DateCell } from '../../components/ui/date-cell.tsx';

// /admin/route-rules: the operator's rules of paths (ADR 036): a redirect to a path of this site or an absolute
// address, or a block (the 404 screen). A change applies at once on every instance.

/** The form of a new rule, or of a change of one (`editing`). */
export function RouteRuleForm({ editing, onSaved, onCancel }: { editing: AdminRouteRule | null; onSaved: () => void; onCancel?: () => void }) {
  const [draft, setDraft] = useState<RuleDraft>(() => ruleDraft(editing));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = ruleBody(draft);
    setBusy(true);
    const res = editing ? await api.write('admin.routeRules.update', { params: { id: editing._id }, body }) : await api.write('admin.routeRules.create', { body });
    setBusy(false);
    if (res.error) {
      setErrors(ruleErrors(res.error));
      return;
    }
    setErrors({});
    if (!editing) setDraft(EMPTY_RULE);
    toast(editing ? 'Правило изменено' : 'Правило добавлено', { type: 'success' });
    onSaved();
  }

  const set = (field: keyof RuleDraft) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    setDraft((d) => ({ ...d, [field]: e.target.value }));
    setErrors((all) => ({ ...all, [field]: [] }));
  };

  return (
    <form className="card rule-form" onSubmit={submit} noValidate aria-label={editing ? `Изменить правило ${editing.path}` : 'Новое правило'}>
      <TextField label="Адрес" name="path" value={draft.path} onChange={set('path')} placeholder="/old-page" errors={errors} maxLength={500} autoComplete="off" />
      <SelectField
        label="Действие"
        name="kind"
        value={draft.kind}
        onChange={set('kind')}
        options={(Object.keys(RULE_KIND_LABELS) as RouteRuleKind[]).map((k) => ({ value: k, label: RULE_KIND_LABELS[k] }))}
        errors={errors}
      />
      {draft.kind === 'redirect' ? (
        <TextField
          label="Куда"
          name="target"
          value={draft.target}
          onChange={set('target')}
          placeholder="/services или https://…"
          errors={errors}
          maxLength={2000}
          autoComplete="off"
        />
      ) : (
        <p className="field__hint">Посетители увидят страницу «Не найдено» с кодом 404.</p>
      )}
      <div className="rule-form__actions">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {editing ? 'Сохранить' : 'Добавить'}
        </button>
        {onCancel && (
          <button type="button" className="btn btn--ghost" onClick={onCancel}>
            Отмена
          </button>
        )}
      </div>
      <FormError message={errors._?.[0]} />
    </form>
  );
}

export function RouteRulesTable({ rules, onChanged }: { rules: AdminRouteRule[]; onChanged: () => void }) {
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function remove(rule: AdminRouteRule) {
    if (!window.confirm(`Удалить правило для ${rule.path}?`)) return;
    setBusy(rule._id);
    const res = await api.write('admin.routeRules.remove', { params: { id: rule._id } });
    setBusy(null);
    if (res.error) return void toast(res.error.message);
    toast('Правило удалено', { type: 'success' });
    onChanged();
  }

  if (!rules.length) return <p className="empty-state">Правил нет.</p>;
  return (
    <table className="table">
      <thead>
        <tr>
          <th>Адрес</th>
          <th>Действие</th>
          <th>Куда</th>
          <th>Изменено</th>
          <th>Действия</th>
        </tr>
      </thead>
      <tbody>
        {rules.map((rule) =>
          editing === rule._id ? (
            <tr key={rule._id}>
              <td colSpan={5}>
                <RouteRuleForm
                  editing={rule}
                  onCancel={() => setEditing(null)}
                  onSaved={() => {
                    setEditing(null);
                    onChanged();
                  }}
                />
              </td>
            </tr>
          ) : (
            <tr key={rule._id}>
              <td data-label="Адрес" className="rule-target">
                {rule.path}
              </td>
              <td data-label="Действие">{RULE_KIND_LABELS[rule.kind]}</td>
              <td data-label="Куда" className="rule-target">
                {rule.target ?? '—'}
              </td>
              <DateCell label="Изменено" date={rule.updated_at} />
              <td data-label="Действия">
                <span className="fin-actions">
                  <button type="button" className="btn btn--ghost btn--sm" onClick={() => setEditing(rule._id)}>
                    Изменить
                  </button>
                  <button type="button" className="btn btn--danger btn--sm" disabled={busy === rule._id} onClick={() => remove(rule)}>
                    Удалить
                  </button>
                </span>
              </td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}
