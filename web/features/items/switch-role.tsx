import { useState } from 'react';
import { useRevalidator } from 'react-router';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { useShell } from '../../lib/use-shell.ts';

const LABELS = { seller: 'Продавец', customer: 'Покупатель' } as const;

/**
 * Switches the active role without leaving the page (the header's toggle goes to the role's home instead).
 * A person who is not a seller yet is sent to /become-seller.
 */
export function SwitchRoleButton({ role, ghost = false }: { role: 'seller' | 'customer'; ghost?: boolean }) {
  const { user } = useShell();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  if (!user) return null;
  if (role === 'seller' && !user.roles.includes('seller')) {
    return (
      <AppLink to="/become-seller" className={`btn ${ghost ? 'btn--ghost' : 'btn--primary'}`}>
        Стать продавцом
      </AppLink>
    );
  }

  async function choose() {
    setBusy(true);
    const { error } = await api.write('users.setRole', { body: { role } });
    if (error) {
      setBusy(false);
      return toast(error.message);
    }
    await revalidator.revalidate();
    setBusy(false);
    toast(`Включён режим «${LABELS[role]}»`, { type: 'success' });
  }

  return (
    <button type="button" className={`btn ${ghost ? 'btn--ghost' : 'btn--primary'}`} onClick={choose} disabled={busy}>
      Включить режим «{LABELS[role]}»
    </button>
  );
}
