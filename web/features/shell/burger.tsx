import { Menu, X } from '../../components/ui/icons.tsx';

export interface BurgerProps {
  open: boolean;
  onToggle: () => void;
}

/** The phone menu's button; a signed-in person's carries the unseen count (signed-in.tsx). */
export function Burger({ open, onToggle, unseen, badge }: BurgerProps & { unseen?: string; badge?: React.ReactNode }) {
  return (
    <button
      type="button"
      className="header__burger"
      aria-expanded={open}
      aria-controls="header-menu"
      aria-label={open ? 'Закрыть меню' : `Открыть меню${unseen ? `, ${unseen}` : ''}`}
      onClick={onToggle}
    >
      {open ? <X aria-hidden /> : <Menu aria-hidden />}
      {!open && badge}
    </button>
  );
}
