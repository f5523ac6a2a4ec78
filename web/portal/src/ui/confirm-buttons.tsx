import { useEffect, useRef } from 'react';

/** "Yes, do it" / "Cancel" in place of a destructive button; the confirming one takes the focus. */
export function ConfirmButtons(props: { confirmLabel: string; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  return (
    <span className="confirm-buttons">
      <button type="button" ref={confirm} className="danger small" disabled={props.busy} onClick={props.onConfirm}>
        {props.confirmLabel}
      </button>
      <button type="button" className="small" onClick={props.onCancel}>
        Cancel
      </button>
    </span>
  );
}
