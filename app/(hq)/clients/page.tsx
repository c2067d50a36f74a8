import { redirect } from "next/navigation";

// Clients are listed beside the agents deployed to them: the address people type or trim to goes there.
export default function Page() {
  redirect("/agents#clients");
}
