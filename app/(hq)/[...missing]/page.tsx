import { notFound } from "next/navigation";

// Any console address no page serves: the HQ not-found page, inside the navigation.
export default function Missing() {
  notFound();
}
