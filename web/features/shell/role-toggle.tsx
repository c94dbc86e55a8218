import { useNavigate } from 'react-router';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { useShell } from '../../lib/use-shell.ts';

const ROLES = [
  ['customer', 'Покупатель'],
  ['seller', 'Продавец'],
] as const;

/** PRODUCT.md: active_role switches the whole interface between buying and selling. */
export function RoleToggle() {
  const { user } = useShell();
  const navigate = useNavigate();
  if (!user) return null;

  async function choose(role: 'customer' | 'seller') {
    if (role === user!.active_role) return;
    if (role === 'seller' && !user!.roles.includes('seller')) return navigate('/become-seller');
    const { error } = await api.write('users.setRole', { body: { role } });
    if (error) return toast(error.message);
    // Each role has its own home: sellers work from the projects exchange.
    window.location.assign(role === 'seller' ? '/projects' : '/');
  }

  return (
    <div className="role-toggle" role="group" aria-label="Режим">
      {ROLES.map(([role, label]) => (
        <button key={role} type="button" aria-pressed={user.active_role === role} onClick={() => choose(role)}>
          {label}
        </button>
      ))}
    </div>
  );
}
